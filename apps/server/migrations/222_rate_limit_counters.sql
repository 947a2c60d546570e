-- Counters of the sign-in rate limits (login, refresh, logout, password reset; modules/auth/rate-limit.ts),
-- shared by every API process (issue 24 item 5): one fixed window per key. Unlogged: counters are worth
-- no WAL, and a crash of the database simply starts them again. Old windows are pruned as they are met.
create unlogged table rate_limit_counters (
  key           text primary key,
  window_start  timestamptz not null,
  hits          integer not null
);
create index rate_limit_counters_start_idx on rate_limit_counters (window_start);

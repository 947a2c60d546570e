-- Server-side logout (issue 26, finding 9; issue 24 item 5: revocation shared by every process).
--
-- A login starts a session (the token's `sid`); refreshes keep it. Logout inserts the sid here, and the one
-- query that loads the user on every request (plugins/auth.ts loadUserAccess) also asks whether the
-- token's sid is here — by primary key, in the same round trip, so every API process refuses a revoked
-- token at its next request, with no cache to go stale. A row is useless once its session could not be
-- alive anyway (expires_at = session start + the longest session): logout deletes those.
create table revoked_sessions (
  sid         text primary key,
  user_id     integer not null references users on delete cascade,
  revoked_at  timestamptz not null default now(),
  expires_at  timestamptz not null
);
create index revoked_sessions_expiry_idx on revoked_sessions (expires_at);

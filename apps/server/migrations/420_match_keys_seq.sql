-- The matching run's per-brand title index (issue 29; modules/matching/title-index.ts) is kept in the
-- process between runs and brought up to date from the keys (re)made since it last read them:
--   match_keys.seq   a number from match_keys_seq taken when the row is inserted or its key remade
--                    (keys.ts); rows older than this migration have none (they were all read when an
--                    index was first built). No table rewrite: the column has no default for old rows.
create sequence if not exists match_keys_seq;
alter table match_keys add column if not exists seq bigint;
alter table match_keys alter column seq set default nextval('match_keys_seq');
create index if not exists match_keys_seq_idx on match_keys (seq) where seq is not null;

-- What a seller's matching run (the match-seller job, issue 29; modules/matching/pipeline.ts) has done, so
-- that the next one does only what is new:
--   keys_seq          the seller's sellers.ingest_seq its match_keys were last made at (keys.ts): a seller
--                     whose data did not move since has no key to remake (no scan of its listings)
--   scored_keys_seq   the highest match_keys.seq when its last run started: a listing of it in no group is
--                     scored again only when its key was (re)made since, or its brand has listings of
--                     other sellers (re)made since, or a decision touched its brand since
--   scored_decision   the highest match_decisions.id when its last run started (the same, for decisions)
-- No row, or no scored_keys_seq: the next run scores every listing of the seller in no group.
create table if not exists match_seller_state (
  seller_id        integer primary key references sellers on delete cascade,
  keys_seq         bigint,
  scored_keys_seq  bigint,
  scored_decision  bigint
);

-- Answers kept across a restart (issue 30, cold start: "serve from what is loaded"): the answer memos a
-- feature names (platform/read-model.ts keptAcrossRestarts — the dashboard's cards, the DPM KPIs) are
-- written here when an API process closes, and read by the next one before its first answer. Each key
-- holds the market's data version and the model version it was made at, so an answer is only found again
-- while the data is the same; `code` names the code that made it (platform/code-stamp.ts). A few dozen
-- answers of a few kB per memo.
create table answer_memos_saved (
  memo     text not null,
  key      text not null,
  code     text not null,
  rank     int not null,
  value    json not null,
  saved_at timestamptz not null default now(),
  primary key (memo, key)
);

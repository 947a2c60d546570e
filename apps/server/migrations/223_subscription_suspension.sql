-- Report subscriptions checked at the moment they run (issue 26, finding 1; modules/reports/subscriptions.ts).
-- A due subscription whose recipient or creator is deactivated, or whose license no longer grants its
-- report, is suspended — no task, no e-mail — with the reason shown in the organisation's list; it
-- resumes by itself at a later due time when the access is back.
alter table report_subscriptions
  add column suspended_at     timestamptz,
  add column suspended_reason text;

-- The job queue moved to pg-boss (schema pgboss, installed by the server at start: platform/jobs/queue.ts
-- installJobs; docs/architecture.md "Jobs"). Job ids are pg-boss's uuids; the ids kept by deliveries
-- pointed at rows of the old table, which is dropped (jobs still queued in it at the upgrade are not
-- carried over: docs/operations.md "Rolling out a migration").
alter table report_deliveries alter column email_job_id type uuid using null;
alter table notification_sends alter column job_id type uuid using null;
drop table if exists jobs;

-- E-mails handed to the mail server, by job: a retried e-mail job (its worker died after sending) finds
-- its row and sends nothing again (platform/mail/email-job.ts).
create table email_sent (
  job_id  uuid primary key,
  sent_at timestamptz not null default now()
);

-- Reports in the background and e-mail subscriptions (issue 16; modules/reports, docs/metrics.md "Reports").
--
-- export_tasks (001_init.sql) holds every report a user asked for or a subscription built: `kind` is the
-- report type, `params` the resolved request (pivot, sellers, currency, license roots, from/to, format).
-- The file is written under DATA_DIR/reports/<user id>/<task id>.<ext> and deleted `expires_at`.
alter table export_tasks
  add column rows_done   bigint not null default 0,   -- rows written so far
  add column rows_total  bigint,                      -- rows to write (null until counted)
  add column expires_at  timestamptz,                 -- the file is deleted then (file_path set to null)
  add column subscription_id integer;                 -- built for this subscription (report_subscriptions.id)
create index export_tasks_expiry_idx on export_tasks (expires_at) where file_path is not null;

-- Subscriptions: an address of the organisation receives a report type on schedule, at a local hour of
-- the recipient's timezone. The request's scope (pivot, sellers, currency, roots) is the subscriber's at
-- the time of subscribing. next_run_at is the next send (UTC); the scheduler takes due rows with
-- FOR UPDATE SKIP LOCKED, so several processes never send one twice.
alter table report_subscriptions
  add column org_id      integer references organisations on delete cascade,
  add column frequency   text not null default 'daily' check (frequency in ('daily', 'weekly')),
  add column hour        smallint not null default 8 check (hour between 0 and 23),
  add column weekday     smallint not null default 1 check (weekday between 1 and 7),  -- ISO, 1 = lunes
  add column format      text not null default 'xlsx' check (format in ('xlsx', 'csv')),
  add column timezone    text not null default 'America/Santiago',
  add column params      jsonb not null default '{}',
  add column next_run_at timestamptz not null default now();
-- backfill: rows of an existing database belong to their user's organisation
update report_subscriptions s set org_id = u.org_id from users u where u.id = s.user_id and s.org_id is null;
alter table report_subscriptions alter column org_id set not null;
-- one subscription per (organisation, report type, address), whoever created it
alter table report_subscriptions drop constraint if exists report_subscriptions_user_id_report_type_email_key;
create unique index report_subscriptions_org_key on report_subscriptions (org_id, report_type, lower(email));
create index report_subscriptions_due_idx on report_subscriptions (next_run_at);

-- Every send of a subscription: the task that built the file and the 'email' job that delivers it
-- (its attempts, back-off and last error are the job's: jobs.attempts / run_at / last_error).
create table report_deliveries (
  id               bigserial primary key,
  subscription_id  integer not null references report_subscriptions on delete cascade,
  task_id          uuid references export_tasks on delete set null,
  email_job_id     bigint,
  as_link          boolean not null default false,
  error            text,                -- a failed build
  created_at       timestamptz not null default now(),
  sent_at          timestamptz
);
create index report_deliveries_sub_idx on report_deliveries (subscription_id, created_at desc);
create index report_deliveries_task_idx on report_deliveries (task_id);

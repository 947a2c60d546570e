-- Issue 25: the market zone of an organisation (a setting; the default is the deployment's, as every
-- organisation had it until now) decides what a day is for its periods, windows and "today". The
-- user's own `timezone` (users.timezone) decides how times are shown and when that user's digests and
-- report subscriptions go out. The zone is an argument of the day functions below, never a literal of
-- the statements that call them.
alter table organisations add column market_zone text not null default 'America/Santiago';

-- The calendar day of an instant in a zone.
create or replace function vigia_day(t timestamptz, zone text) returns date
language sql stable parallel safe as $$
  select (t at time zone zone)::date
$$;

-- The first instant of a calendar day in a zone (a day that starts in a DST gap starts at the first
-- instant that exists: 2026-09-06 in America/Santiago starts at 01:00 local = 04:00Z).
create or replace function vigia_day_start(d date, zone text) returns timestamptz
language sql stable parallel safe as $$
  select d::timestamp at time zone zone
$$;

-- Window membership (docs/metrics.md "Pricing", "Date semantics"): a listing belongs to the window
-- [from_day, to_day] of a zone when it was last seen on or after the start of from_day and first seen
-- before the end of to_day. TypeScript: domain seenInWindow.
create or replace function vigia_seen_in(last_seen timestamptz, first_seen timestamptz, from_day date, to_day date,
                                         zone text) returns boolean
language sql stable parallel safe as $$
  select last_seen >= vigia_day_start(from_day, zone) and first_seen < vigia_day_start(to_day + 1, zone)
$$;

-- One market zone per organisation: migration 232 added organisations.market_zone (days, periods,
-- schedules; issue 25) and migration 250 organisations.timezone (the cron of feed sources; issue 27), the
-- same setting twice. Feeds read market_zone now; the second column goes.
alter table organisations drop column if exists timezone;

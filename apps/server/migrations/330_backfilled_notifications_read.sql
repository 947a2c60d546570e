-- Issue 31 item 5: notifications of history (an event fanned out more than a day after it happened: the
-- demo's 180 days, a backfill) are stored read from now on (dispatch.ts insertNotifications); those an
-- earlier version stored unread are marked read here, so a first login does not open on ~1,000 unread.
update notifications
   set read_at = created_at
 where read_at is null
   and event_id is not null
   and created_at - occurred_at > interval '1 day';

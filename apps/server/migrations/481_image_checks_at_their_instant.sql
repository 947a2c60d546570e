-- Issue 25: an image check's day is a day of the organisation's market zone. A check was stored under
-- its run's day in the deployment's zone (comparison_date, one check per listing and day: the day's last
-- picture change). Now it keeps the instant it was made (checked_at: the ingest run's, or the moment a
-- comparison was seeded) and the instant the listing's next check replaced it (superseded_at, null: none
-- yet); a screen cuts days at read time in its zone (modules/image-verification/queries.ts): the checks of
-- day D in zone Z are those made within D in Z and not replaced before D ended there — the day's last
-- per listing, as before, in any zone, without a copy per zone or a rebuild when a zone is chosen. Both
-- bounds ride in the screens' index, so a day is still one range of it per seller.
--
-- Backfill: a stored check knows its day only (in the deployment's zone, America/Santiago); its instant is
-- taken as its seller's last succeeded run of that day (the run that wrote a day's last picture, when the
-- day had one run), else noon of that day. Exact for any zone where those runs fall on the same day.

alter table image_checks add column checked_at timestamptz, add column superseded_at timestamptz;

update image_checks c
   set checked_at = coalesce(
         (select max(ir.observed_at) from ingest_runs ir
           where ir.seller_id = c.seller_id and ir.status = 'succeeded'
             and ir.observed_at >= vigia_day_start(c.comparison_date, 'America/Santiago')
             and ir.observed_at < vigia_day_start(c.comparison_date + 1, 'America/Santiago')),
         vigia_day_start(c.comparison_date, 'America/Santiago') + interval '12 hours');

update image_checks c set superseded_at = n.next
  from (select id, lead(checked_at) over (partition by product_id order by checked_at) as next
          from image_checks) n
 where n.id = c.id and n.next is not null;

alter table image_checks alter column checked_at set not null;
-- (drops the unique (product_id, comparison_date) and the date indexes of migrations 001 and 122)
alter table image_checks drop column comparison_date;
alter table image_checks add constraint image_checks_product_at_key unique (product_id, checked_at);

-- a day's checks of some sellers: per seller one range of checked_at, the columns the screens filter,
-- count and order on in the index (as migration 122's)
create index image_checks_seller_at_cover_idx on image_checks (seller_id, checked_at)
  include (superseded_at, similarity, brand_id, product_id, id);
-- the latest comparison day
create index image_checks_at_idx on image_checks (checked_at);
analyze image_checks;

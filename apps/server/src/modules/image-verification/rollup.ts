import type pg from 'pg';
import { registerRollup } from '../ingest/index.js';
import { enqueueScoring } from './score-job.js';

// Image verification at ingest time (runs in the ingest transaction): a touched listing with a reference
// picture (reference_images by EAN) whose picture is new or changed gets a check at the run's instant
// with its new picture (its previous check is superseded then: migration 481; a screen's day, in its
// organisation's zone, shows each listing's last check of that day), and the pair is queued for
// measuring (a pair measured before is copied at once). `before` notes the touched listings' pictures
// before the run writes anything.

const pictureBefore = new WeakMap<pg.PoolClient, Map<number, string | null>>();

const BEFORE = `
select p.id, p.image_url from products p join reference_images r on r.ean = p.ean where p.id = any($1::bigint[])`;

const AFTER = `
select p.id, p.image_url, r.image_url as reference_url
  from products p join reference_images r on r.ean = p.ean
 where p.id = any($1::bigint[]) and p.image_url is not null`;

const SUPERSEDE = `
update image_checks set superseded_at = $2::timestamptz
 where product_id = any($1::bigint[]) and superseded_at is null and checked_at < $2::timestamptz`;

const UPSERT_CHECKS = `
insert into image_checks (product_id, checked_at, reference_url, image_url, similarity)
select t.id, $4::timestamptz, t.ref, t.url, s.similarity
  from unnest($1::bigint[], $2::text[], $3::text[]) t(id, url, ref)
  left join image_scores s on s.reference_url = t.ref and s.image_url = t.url
on conflict (product_id, checked_at) do update
   set reference_url = excluded.reference_url, image_url = excluded.image_url, similarity = excluded.similarity`;

const QUEUE_PAIRS = `
insert into image_scores (reference_url, image_url)
select distinct t.ref, t.url from unnest($1::text[], $2::text[]) t(url, ref)
on conflict do nothing`;

/** A listing's brand may change (re-described): its checks keep the brand they are filtered by. */
const BRANDS = `
update image_checks c set brand_id = p.brand_id from products p
 where p.id = any($1::bigint[]) and c.product_id = p.id and c.brand_id is distinct from p.brand_id`;

registerRollup(
  'image-verification',
  async (client, { touched, observedAt }) => {
    const before = pictureBefore.get(client);
    pictureBefore.delete(client);
    if (!touched.length) return;
    await client.query({ name: 'iv-brands', text: BRANDS, values: [touched] });
    const { rows } = await client.query<{ id: string; image_url: string; reference_url: string }>({
      name: 'iv-after',
      text: AFTER,
      values: [touched],
    });
    const changed = rows.filter((r) => before?.get(Number(r.id)) !== r.image_url);
    if (!changed.length) return;
    const ids = changed.map((r) => r.id);
    const urls = changed.map((r) => r.image_url);
    const refs = changed.map((r) => r.reference_url);
    await client.query({ name: 'iv-supersede', text: SUPERSEDE, values: [ids, observedAt] });
    await client.query(UPSERT_CHECKS, [ids, urls, refs, observedAt]);
    const queued = await client.query(QUEUE_PAIRS, [urls, refs]);
    if (queued.rowCount) await enqueueScoring(client);
  },
  async (client, { touched }) => {
    if (!touched.length) return;
    const { rows } = await client.query<{ id: string; image_url: string | null }>({
      name: 'iv-before',
      text: BEFORE,
      values: [touched],
    });
    pictureBefore.set(client, new Map(rows.map((r) => [Number(r.id), r.image_url])));
  },
);

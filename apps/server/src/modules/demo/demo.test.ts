import { MODULE_CODES } from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { verifyPassword } from '../../lib/password.js';
import { createTestDatabase } from '../../test/context.js';
import { checkDailyRollups } from '../../test/rollups-check.js';
import { buildCatalogue, retailPrice } from './generator.js';
import { isValidEan13 } from './random.js';
import { DEMO_ACCOUNTS, type SeedDemoSummary, seedDemoMarket } from './seed-demo.js';

// The tiny demo market, seeded twice: same input → same data; then its structure.
const TODAY = '2026-06-15'; // 30 days: 2026-05-17 … 2026-06-15, with CyberDay (1–3 June) and Hot Sale (MX)

let a: Database;
let b: Database;
let summary: SeedDemoSummary;
const logged: string[] = [];
beforeAll(async () => {
  [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  summary = await seedDemoMarket(a.pool, { size: 'tiny', today: TODAY, log: (m) => logged.push(m) });
  // b keeps Surtido's spans and the promotions run by run, as a day's ingest does; a builds them once per
  // seller from the history (the default)
  await seedDemoMarket(b.pool, { size: 'tiny', today: TODAY, rollups: 'per run' });
}, 300_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const one = async <T = Record<string, unknown>>(db: Database, sql: string, params: unknown[] = []) =>
  (await db.pool.query(sql, params)).rows[0] as T;

/** md5 of tables dumped by natural keys (surrogate ids may legitimately differ). */
async function checksums(db: Database) {
  return one(
    db,
    `select
      (select md5(string_agg(concat_ws('|', p.seller_id, p.product_id, p.sku, p.ean, p.name, br.name, p.url, p.image_url,
                 c.name, p.classification_id, p.first_seen, p.last_seen, p.published, p.unpublished_at), ',' order by p.seller_id, p.product_id))
         from products p left join brands br on br.id = p.brand_id left join categories c on c.id = p.category_id) as products,
      (select md5(string_agg(concat_ws('|', p.seller_id, p.product_id, pi.valid_from, pi.valid_to, pi.normal_price, pi.sale_price,
                 pi.exclusive_price, pi.byquantity_price, pi.byquantity_qty, pi.price_type, pi.stock_out, pi.currency), ','
                 order by p.seller_id, p.product_id, pi.valid_from))
         from price_intervals pi join products p on p.id = pi.product_id) as intervals,
      (select md5(string_agg(concat_ws('|', day, seller_id, classification_id, brand_id, published, in_stock, promoted,
                 promoted_sale, promoted_exclusive, promoted_byquantity, effective_price_sum, normal_price_sum, discount_pct_sum,
                 new_listings, unpublished, went_out_of_stock, back_in_stock), ',' order by seller_id, day, classification_id, brand_id))
         from rollup_daily_brand) as rollups,
      (select md5(string_agg(concat_ws('|', p.seller_id, p.product_id, g.ean, m.method, m.status, m.confidence), ','
                 order by p.seller_id, p.product_id))
         from match_members m join products p on p.id = m.product_id join match_groups g on g.id = m.group_id) as matches,
      (select md5(string_agg(concat_ws('|', p.seller_id, p.product_id, i.checked_at, i.reference_url, i.image_url, i.similarity), ','
                 order by p.seller_id, p.product_id, i.checked_at))
         from image_checks i join products p on p.id = i.product_id) as images,
      (select md5(string_agg(concat_ws('|', currency, day, clp_per_unit), ',' order by currency, day)) from fx_rates) as fx,
      (select count(*)::int from price_intervals) as n_intervals`,
  );
}

describe('demo generator', () => {
  it('is deterministic: the same size and day give the same market', async () => {
    const [x, y] = await Promise.all([checksums(a), checksums(b)]);
    expect(x).toEqual(y);
    expect(x.n_intervals).toBeGreaterThan(1000);
    // and the pure catalogue too
    expect(
      JSON.stringify(
        buildCatalogue(150)
          .items.slice(0, 50)
          .map((i) => [i.ean, i.baseClp]),
      ),
    ).toBe(
      JSON.stringify(
        buildCatalogue(150)
          .items.slice(0, 50)
          .map((i) => [i.ean, i.baseClp]),
      ),
    );
  });

  it('reports what it did', () => {
    expect(summary).toMatchObject({ size: 'tiny', from: '2026-05-17', to: TODAY, sellers: 5, runs: 150 });
    expect(summary.observations).toBeGreaterThan(15_000);
  });

  it('logs the per-statement totals of each phase, the largest first', () => {
    // after "observaciones: …": lines "  <s> s <calls> × <ms> ms  <statement>"
    const at = logged.findIndex((l) => l.startsWith('observaciones:'));
    const lines: { s: number; calls: number; sql: string }[] = [];
    for (const l of logged.slice(at + 1)) {
      const m = /^ +([\d.]+) s +([\d,]+) × +[\d.]+ ms {2}(.+)$/.exec(l);
      if (!m) break;
      lines.push({ s: Number(m[1]), calls: Number(m[2].replace(/,/g, '')), sql: m[3] });
    }
    // the 12 largest (a seed runs more distinct statements than that)
    expect(lines.length).toBe(12);
    expect(lines.map((x) => x.s)).toEqual([...lines.map((x) => x.s)].sort((x, y) => y - x));
    // one ingest transaction per seller and day (5 sellers × 30 days), and one per seller for the roll-ups
    // built after its days, one that drops the spans' 12 secondary indexes and one per index built again
    expect(lines.find((x) => x.sql === 'commit')?.calls).toBe(150 + 5 + 1 + 12);
    expect(lines.every((x) => x.calls > 0 && x.sql.length > 0)).toBe(true);
  });

  it('has the sellers, countries, currencies and daily exchange rates', async () => {
    const { rows: sellers } = await a.pool.query(
      `select s.id, s.currency, s.country, c.flag, s.color from sellers s join countries c on c.code = s.country order by s.id`,
    );
    expect(sellers.map((s) => s.id)).toEqual([5, 116, 125, 131, 150]);
    expect(sellers.find((s) => s.id === 131)).toMatchObject({ country: 'PE', currency: 'PEN', flag: '🇵🇪' });
    expect(sellers.find((s) => s.id === 150)).toMatchObject({ country: 'MX', currency: 'MXN' });
    expect(new Set(sellers.map((s) => s.color)).size).toBe(sellers.length);
    const cur = await a.pool.query('select acronym from currencies order by 1');
    expect(cur.rows.map((r) => r.acronym)).toEqual(['CLP', 'MXN', 'PAB', 'PEN', 'USD']);
    const fx = await one<{
      days: number;
      usd_min: number;
      usd_max: number;
      clp_one: boolean;
      pab_differs: number;
    }>(
      a,
      `select count(distinct day)::int as days, min(clp_per_unit) filter (where currency = 'USD') as usd_min,
              max(clp_per_unit) filter (where currency = 'USD') as usd_max,
              bool_and(clp_per_unit = 1) filter (where currency = 'CLP') as clp_one,
              (select count(*)::int from fx_rates u join fx_rates p on p.day = u.day and p.currency = 'PAB'
                where u.currency = 'USD' and u.clp_per_unit <> p.clp_per_unit) as pab_differs
         from fx_rates where day between '2026-05-17' and $1`,
      [TODAY],
    );
    expect(fx).toMatchObject({ days: 30, clp_one: true, pab_differs: 0 });
    expect(fx.usd_max).toBeGreaterThan(fx.usd_min); // it drifts…
    expect(fx.usd_max / fx.usd_min).toBeLessThan(1.15); // …a little
  });

  it('has a 3-level classification tree and brands', async () => {
    const t = await one(
      a,
      `select count(*) filter (where level = 1)::int as roots, count(*) filter (where level = 3)::int as leaves,
              bool_and(cardinality(path) = level) as paths,
              (select count(*)::int from brands) as brands
         from classifications`,
    );
    expect(t.roots).toBe(8);
    expect(t.leaves).toBeGreaterThanOrEqual(60);
    expect(t.paths).toBe(true);
    expect(t.brands).toBeGreaterThanOrEqual(120);
  });

  it('has overlapping catalogues with valid EANs, listings without EAN and per-seller names and breadcrumbs', async () => {
    const { rows } = await a.pool.query<{ ean: string }>(
      'select distinct ean from products where ean is not null',
    );
    expect(rows.every((r) => isValidEan13(r.ean))).toBe(true);
    const o = await one(
      a,
      `select (select count(*)::int from (select ean from products where ean is not null group by ean
                                           having count(distinct seller_id) >= 2) x) as shared,
              (select count(*)::int from products where ean is null) as without_ean,
              (select count(*)::int from (select ean from products where ean is not null group by ean
                                           having count(distinct name) >= 2) x) as renamed,
              (select count(distinct (seller_id, level))::int from categories) as levels,
              (select count(*)::int from products where url !~ '^https://www\\.[a-z.]+/p/') as bad_urls,
              (select count(*)::int from products where image_url !~ '^/media/products/[a-z]+-[A-Z0-9]+-[0-9A-Za-z]+(-[a-z])?\\.svg$'
                 and image_url !~ '^/v1/image-verification/pictures/[a-z]+-[A-Z0-9]+-[0-9A-Za-z]+\\.[a-z]+\\.(png|jpg|webp)$') as bad_images`,
    );
    expect(o.shared).toBeGreaterThan(50);
    expect(o.without_ean).toBeGreaterThan(0);
    expect(o.renamed).toBeGreaterThan(20);
    expect(o.bad_urls).toBe(0);
    expect(o.bad_images).toBe(0);
    const perSeller = await a.pool.query(
      `select seller_id, count(*)::int as n, count(*) filter (where published)::int as published from products group by 1 order by 1`,
    );
    for (const r of perSeller.rows) expect(r.n).toBeGreaterThan(100);
  });

  it('has every promotion type, Cyber, stock-outs, new and unpublished listings and a few extraction errors', async () => {
    const o = await one(
      a,
      `select count(*) filter (where price_type = 'SALE')::int as sale,
              count(*) filter (where price_type = 'EXCLUSIVE')::int as exclusive,
              count(*) filter (where price_type = 'BYQUANTITY' and byquantity_qty >= 2)::int as byquantity,
              count(*) filter (where stock_out)::int as stock_outs,
              count(*) filter (where price_type = 'SALE' and (valid_from at time zone 'America/Santiago')::date = '2026-06-01'
                                 and p.seller_id in (5, 116, 125))::int as cyberday_starts,
              count(distinct pi.currency) filter (where p.seller_id = 131)::int as pe_currencies,
              min(pi.currency) filter (where p.seller_id = 131) as pe_currency
         from price_intervals pi join products p on p.id = pi.product_id`,
    );
    expect(o.sale).toBeGreaterThan(100);
    expect(o.exclusive).toBeGreaterThan(5);
    expect(o.byquantity).toBeGreaterThan(5);
    expect(o.stock_outs).toBeGreaterThan(20);
    expect(o.cyberday_starts).toBeGreaterThan(30);
    expect(o).toMatchObject({ pe_currencies: 1, pe_currency: 'PEN' });
    const e = await one(
      a,
      `select (select count(*)::int from products where first_seen > (select min(first_seen) + interval '2 days' from products)) as newer,
              (select count(*)::int from products where not published) as unpublished,
              (select count(*)::int from price_intervals x join price_intervals y on y.product_id = x.product_id
                 and y.valid_from = x.valid_to
                where y.normal_price >= 50 * x.normal_price or y.normal_price * 50 <= x.normal_price) as errors`,
    );
    expect(e.newer).toBeGreaterThan(10);
    expect(e.unpublished).toBeGreaterThan(0);
    expect(e.errors).toBeGreaterThan(0);
  });

  it('stores non-overlapping price intervals, one open interval per published listing', async () => {
    const o = await one(
      a,
      `select (select count(*)::int from price_intervals x join price_intervals y on y.product_id = x.product_id
                and y.valid_from > x.valid_from and (x.valid_to is null or x.valid_to > y.valid_from)) as overlaps,
              (select count(*)::int from (select product_id from price_intervals where valid_to is null
                                           group by 1 having count(*) > 1) x) as multi_open,
              (select count(*)::int from products p where p.published
                 and not exists (select 1 from price_intervals i where i.product_id = p.id and i.valid_to is null)) as published_closed,
              (select count(*)::int from products p where not p.published
                 and exists (select 1 from price_intervals i where i.product_id = p.id and i.valid_to is null)) as unpublished_open,
              (select count(*)::int from listing_current lc join price_intervals i on i.product_id = lc.product_id
                 and i.valid_to is null where i.valid_from <> lc.since) as snapshot_mismatch,
              (select count(*)::int from listing_current lc join products p on p.id = lc.product_id
                where lc.published <> p.published or lc.brand_id is distinct from p.brand_id
                   or lc.classification_id is distinct from p.classification_id) as snapshot_stale`,
    );
    expect(o).toEqual({
      overlaps: 0,
      multi_open: 0,
      published_closed: 0,
      unpublished_open: 0,
      snapshot_mismatch: 0,
      snapshot_stale: 0,
    });
  });

  it('keeps the daily roll-ups equal to a recomputation from the price history', async () => {
    const n = await one<{ n: number }>(a, 'select count(*)::int as n from rollup_daily_brand');
    expect(n.n).toBeGreaterThan(500);
    expect(await checkDailyRollups(a.pool)).toEqual([]);
  });

  it("builds Surtido's spans and the promotions after each seller's days as its runs would have kept them", async () => {
    // every row of each table, its listing by natural key (surrogate ids may differ between two loads)
    const dump = async (db: Database) => {
      const out: Record<string, string> = {};
      const listing = `(select concat_ws(':', p.seller_id, p.product_id) from products p where p.id = t.product_id)`;
      for (const [table, rows] of [
        [
          'assortment_spans',
          `select ${listing} as listing, to_jsonb(t) - 'product_id' as r from assortment_spans t`,
        ],
        [
          'promo_spans',
          `select ${listing} as listing, to_jsonb(t) - 'product_id' - 'id' as r from promo_spans t`,
        ],
        ...[
          'assortment_events_cum',
          'promo_daily',
          'promo_weekly',
          'promo_type_cum',
          'promo_duration_cum',
          'promo_duration_keys',
          'promo_cum_currencies',
        ].map((t) => [t, `select '' as listing, to_jsonb(t) as r from ${t} t`]),
      ]) {
        const { rows: r } = await db.pool.query<{ n: number; md5: string }>(
          `select count(*)::int as n, md5(string_agg(listing || r::text, ',' order by listing || r::text)) as md5
             from (${rows}) x`,
        );
        out[table] = `${r[0].n} ${r[0].md5}`;
      }
      return out;
    };
    const [deferred, perRun] = await Promise.all([dump(a), dump(b)]);
    expect(deferred).toEqual(perRun);
    expect(Number.parseInt(deferred.assortment_spans, 10)).toBeGreaterThan(1000);
    expect(Number.parseInt(deferred.promo_spans, 10)).toBeGreaterThan(100);
    expect(Number.parseInt(deferred.promo_type_cum, 10)).toBeGreaterThan(100);
    // the log says so, per seller
    const rebuilt = logged.filter((l) =>
      /; (promotions y assortment|assortment y promotions) en [\d.]+ s$/.test(l),
    );
    expect(rebuilt.length, logged.join('\n')).toBe(summary.sellers);
    // the spans' secondary indexes, dropped for the lanes, are all there again as the migrations made them
    const indexes = async (db: Database) =>
      (
        await db.pool.query<{ name: string; def: string }>(
          `select indexname as name, indexdef as def from pg_indexes where tablename = 'assortment_spans' order by 1`,
        )
      ).rows;
    const [built, kept] = await Promise.all([indexes(a), indexes(b)]);
    expect(built).toEqual(kept);
    expect(built.length).toBe(13);
    expect((await one<{ n: number }>(a, 'select count(*)::int as n from deferred_indexes')).n).toBe(0);
    expect(
      logged.some((l) => /^ {2}12 índices reconstruidos en [\d.]+ s$/.test(l)),
      logged.join('\n'),
    ).toBe(true);
  });

  it('creates the two demo accounts with their licenses', async () => {
    expect(DEMO_ACCOUNTS.map((x) => x.email)).toEqual(['demo@example.com', 'limited@example.com']);
    const { rows } = await a.pool.query(
      `select u.email, u.name, u.pivot_id, u.currency, u.password_hash, o.name as org,
              array(select seller_id from license_sellers where license_id = l.id order by 1) as sellers,
              array(select seller_id from license_pivots where license_id = l.id order by 1) as pivots,
              array(select currency from license_currencies where license_id = l.id order by 1) as currencies,
              array(select module_code from license_modules where license_id = l.id order by 1) as modules,
              array(select b.name from license_brands lb join brands b on b.id = lb.brand_id where lb.license_id = l.id order by 1) as brands,
              (select count(*)::int from license_classifications where license_id = l.id) as classifications
         from users u join organisations o on o.id = u.org_id join licenses l on l.org_id = o.id order by u.email`,
    );
    const [demo, limited] = rows;
    expect(demo).toMatchObject({
      email: 'demo@example.com',
      name: 'Usuario Demo',
      org: 'Demo Retail',
      pivot_id: 116,
      currency: 'CLP',
      sellers: [5, 116, 125, 131, 150],
      pivots: [5, 116],
      currencies: ['CLP', 'USD'],
      modules: [...MODULE_CODES].sort(),
      brands: ['Casa Nube', 'Hogarix', 'Lumina', 'Polarix'],
      classifications: 8,
    });
    expect(limited).toMatchObject({
      email: 'limited@example.com',
      pivot_id: 5,
      currency: 'CLP',
      pivots: [5],
      currencies: ['CLP'],
      modules: ['dpm', 'reports'],
    });
    expect(limited.org).not.toBe(demo.org);
    expect(limited.sellers).toContain(5);
    expect(limited.sellers.length).toBe(3); // about half of the five
    expect(await verifyPassword('demo1234', demo.password_hash)).toBe(true);
    expect(await verifyPassword('demo1234', limited.password_hash)).toBe(true);
  });

  it('has image-verification data: references for own brands, checks of every kind queued for measuring', async () => {
    const o = await one<Record<string, number>>(
      a,
      `select count(*)::int as n, count(distinct checked_at)::int as dates,
              count(*) filter (where similarity is not null)::int as measured,
              count(distinct substring(i.image_url from '[.]([a-z]+)[.][a-z]+$'))::int as kinds,
              count(distinct p.seller_id) filter (where p.seller_id in (116, 125))::int as iv_sellers,
              count(*) filter (where i.reference_url !~ '^/v1/image-verification/pictures/[a-z]+-[A-Z0-9]+-[0-9]+[.]png$'
                                  or i.reference_url not like '%-' || p.ean || '.png')::int as bad_refs,
              (select count(*)::int from image_scores s where s.similarity is null) as queued,
              (select count(distinct (reference_url, image_url))::int from image_checks) as pairs
         from image_checks i join products p on p.id = i.product_id`,
    );
    expect(o.n).toBeGreaterThan(20);
    expect(o.dates).toBeGreaterThanOrEqual(3);
    expect(o.iv_sellers).toBe(2);
    expect(o.measured).toBe(0); // measured from the pixels by the server's job, never made up by the seed
    expect(o.kinds).toBe(7);
    expect(o.bad_refs).toBe(0);
    expect(o.queued).toBe(o.pairs);
  });

  it('suggests title matches for listings without EAN', async () => {
    const o = await one(
      a,
      `select count(*)::int as n, min(confidence) as lo, max(confidence) as hi,
              count(*) filter (where lc.match_status = 'suggested' and lc.group_id = m.group_id)::int as synced
         from match_members m join listing_current lc on lc.product_id = m.product_id
        where m.method = 'title' and m.status = 'suggested'`,
    );
    expect(o.n).toBeGreaterThan(0);
    expect(o.synced).toBe(o.n);
    expect(o.lo).toBeGreaterThanOrEqual(0.7);
    expect(o.hi).toBeLessThanOrEqual(0.95);
  });

  it('rounds prices like Chilean and Peruvian retail', () => {
    expect(retailPrice(1234, 'CLP')).toBe(1190);
    expect(retailPrice(12_345, 'CLP')).toBe(11_990);
    expect(retailPrice(152_000, 'CLP')).toBe(149_990);
    expect(retailPrice(12.3, 'PEN')).toBe(11.9);
    expect(retailPrice(1234, 'PEN')).toBe(1199);
  });
});

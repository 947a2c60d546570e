import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../lib/jwt.js';
import { waitForJob } from '../../platform/jobs/queue.js';
import { createTestContext, type TestContext } from '../../test/context.js';
import { insertClassification, insertSeller, observe, seedReferenceData } from '../../test/fixtures.js';
import { insertZoneOrgs } from '../../test/zone-orgs.js';
import type { Observation } from '../ingest/index.js';
import { checkPromotions } from './check.js';

// Issue 25: a promotion's start and end days are those of the organisation's market zone (migration 470),
// like its listing-days (migration 432), and one answer never mixes two zones. Hand-built market, worked
// by hand. Offsets: Santiago −04 until its summer time begins on Sun 6 Sep 2026 at 00:00 (→ −03), Lima −05,
// Mexico City −06 (no summer time). Seller R (Rival, CLP), listings R1 and R2, normal price 1000:
//
//   run  UTC            Santiago         Lima             Mexico City      R1           R2
//   A    Aug 30 16:00   Aug 30 12:00     Aug 30 11:00     Aug 30 10:00     1000         1000
//   B    Sep  1 04:30   Sep  1 00:30     Aug 31 23:30     Aug 31 22:30     SALE 800     1000
//   C    Sep  1 05:30   Sep  1 01:30     Sep  1 00:30     Aug 31 23:30     1000         SALE 900
//   D    Sep  1 16:00   Sep  1 12:00     Sep  1 11:00     Sep  1 10:00     1000         SALE 900
//   E    Sep  2 16:00   Sep  2 12:00     Sep  2 11:00     Sep  2 10:00     1000         1000
//   F    Sep  6 16:00   Sep  6 13:00 −03 Sep  6 11:00     Sep  6 10:00     SALE 700     1000
//   G    Sep  7 03:30   Sep  7 00:30 −03 Sep  6 22:30     Sep  6 21:30     1000         1000
//   H    Sep  7 16:00   Sep  7 13:00     Sep  7 11:00     Sep  7 10:00     1000         1000
//
// A day's state is its last run's:
//   Lima      Aug 31 = B: R1 on sale from 23:30 of the month's last day → R1 Aug 31–Aug 31 (1 day, 800, 20 %);
//             Sep 1 = D: R2 → R2 Sep 1–Sep 1 (1 day, 900, 10 %); Sep 6 = G: R1's sale of F is gone.
//   Mexico    Aug 31 = C (23:30): R1's sale of B ended within the day (no promotion), R2 on sale →
//             R2 Aug 31–Sep 1 (2 days, 900, 10 %); Sep 6 = G as in Lima.
//   Santiago  no Aug 31 run; Sep 1 = D: R2 Sep 1–Sep 1 (1 day, 900, 10 %); G is on Sep 7 (00:30 −03, summer
//             time: at a fixed −04 it would read Sep 6 23:30 and end R1's sale the day it began), so
//             Sep 6 = F: R1 Sep 6–Sep 6 (1 day, 700, 30 %).
// Window Aug 30 … Sep 7. Listing-days (2 listings × days with a run): Lima and Mexico 6 days → 12, of which
// on sale 2 (16.67 %); Santiago 5 days (no Aug 31) → 10, on sale 2 (20 %). Promotions and their averages:
// Lima 2, 850, 15 %; Mexico 1, 900, 10 %; Santiago 2, (900 + 700)/2 = 800, (10 + 30)/2 = 20 %.
// Scatter plot (bucket niceStep(p95), p95 of the pooled prices): Lima 800, 900 → p95 895 → 50;
// Mexico 900 → 50; Santiago 700, 900 → p95 890 → 50.

const LIMA = 'America/Lima';
const MEXICO = 'America/Mexico_City';
const SANTIAGO = 'America/Santiago';
const FROM = '2026-08-30';
const TO = '2026-09-07';

let ctx: TestContext;
let leaf: number;
const tokens: Record<string, string> = {};
const orgIds: Record<string, number> = {};

const RUNS: [string, [number, number?], [number, number?]][] = [
  ['2026-08-30T16:00:00Z', [1000], [1000]],
  ['2026-09-01T04:30:00Z', [1000, 800], [1000]],
  ['2026-09-01T05:30:00Z', [1000], [1000, 900]],
  ['2026-09-01T16:00:00Z', [1000], [1000, 900]],
  ['2026-09-02T16:00:00Z', [1000], [1000]],
  ['2026-09-06T16:00:00Z', [1000, 700], [1000]],
  ['2026-09-07T03:30:00Z', [1000], [1000]],
  ['2026-09-07T16:00:00Z', [1000], [1000]],
];

beforeAll(async () => {
  const orgs: [string, string][] = [
    ['lima', LIMA],
    ['santiago', SANTIAGO],
    ['mexico', SANTIAGO], // chooses Mexico City after the data is in (below)
  ];
  const users: Record<string, number> = {};
  ctx = await createTestContext({
    seed: async (db) => {
      const pool = db.pool;
      await seedReferenceData(pool);
      await insertSeller(pool, { id: 5, name: 'Pivote' });
      await insertSeller(pool, { id: 7, name: 'Rival' });
      leaf = await insertClassification(pool, 'Leches');
      const ids = await insertZoneOrgs(pool, orgs, {
        sellers: [7],
        pivots: [5],
        currencies: ['CLP'],
        modules: ['promotions'],
      });
      for (const [name, { org, user }] of Object.entries(ids)) {
        orgIds[name] = org;
        users[name] = user;
        await pool.query('update users set is_admin = true where id = $1', [user]);
      }
      const item = (id: string, [normalPrice, salePrice]: [number, number?]): Observation => ({
        productId: id,
        name: `Producto ${id}`,
        brand: 'Marca',
        classificationId: leaf,
        normalPrice,
        ...(salePrice === undefined ? {} : { salePrice }),
      });
      for (const [t, r1, r2] of RUNS) {
        await observe(pool, 5, t, [item('P', [1000])]);
        await observe(pool, 7, t, [item('R1', r1), item('R2', r2)]);
      }
    },
  });
  for (const [name] of orgs)
    tokens[name] = signToken({ sub: users[name], org: orgIds[name], ver: 0 }, ctx.config.JWT_SECRET, 3600);
}, 120_000);
afterAll(() => ctx?.close());

// biome-ignore lint/suspicious/noExplicitAny: the answers are read loosely here, parsed by their own tests
type Any = any;
async function promo(who: string, path: string, payload: object) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/v1/promotion/${path}`,
    headers: { authorization: `JWT ${tokens[who]}`, 'x-module-authorization': 'promotions' },
    payload: { from_date: FROM, to_date: TO, currency: 'CLP', ...payload },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const rival = (body: Any) => body.items.find((i: Any) => i.seller.id === 7);

/** Promociones por tipo, R's sale: [listing-days on sale, published, %, promotions, promotion avg, discount]. */
async function typeOf(who: string) {
  const c = rival(await promo(who, 'type', { classificationsIds: [leaf] })).classifications[0];
  return [
    c.sale.promoted,
    c.published,
    c.sale.percentage,
    c.sale.count,
    c.sale.prices.promotion,
    c.sale.prices.discount,
  ];
}

/** Promociones por duración, R: [days, count, promotion avg, discount] per duration. */
async function durationOf(who: string) {
  const c = rival(await promo(who, 'duration', { classification: leaf })).classifications[0];
  return c.days.map((d: Any) => [d.day, d.count, d.prices.promotion, d.prices.discount]);
}

/** The type drill-down of R's sales: [listing, first day, last day, days in the window]. */
async function drillOf(who: string) {
  const body = await promo(who, 'prices', {
    classificationsIds: [leaf],
    promotion: 'type',
    kind: 'sale',
    seller_id: 7,
    classification: leaf,
  });
  return body.items.map((p: Any) => [p.name, p.first_day, p.last_day, p.days]).sort();
}

/** The scatter plot's bucket and R's [price, count]. */
async function scatterOf(who: string) {
  const body = await promo(who, 'scatter-plot', { classificationsIds: [leaf], simple: true });
  return [body.bucket, rival(body).prices.map((p: Any) => [p.price, p.count])];
}

/** The range's boundaries over Aug 31 alone. */
async function rangeOf(who: string) {
  const body = await promo(who, 'range', {
    classification: leaf,
    range: 2,
    from_date: '2026-08-31',
    to_date: '2026-08-31',
  });
  return body.items[0].range_points;
}

describe('promotions are kept per market zone at ingest', () => {
  it("each zone's promotions and cumulative rows equal their recount from the history in that zone", async () => {
    expect(await checkPromotions(ctx.db.pool)).toEqual([]);
  });

  it('Lima: R1 Aug 31 (from 23:30 of the last day of August), R2 Sep 1; Santiago: R2 Sep 1, R1 Sep 6', async () => {
    const { rows } = await ctx.db.pool.query(
      `select s.zone, p.product_id, s.first_day::text as a, s.last_day::text as b, s.promo_price::float8 as promo
         from promo_spans s join products p on p.id = s.product_id where s.seller_id = 7
        order by s.zone, s.first_day, p.product_id`,
    );
    expect(rows.map((r) => [r.zone, r.product_id, r.a, r.b, r.promo])).toEqual([
      [LIMA, 'R1', '2026-08-31', '2026-08-31', 800],
      [LIMA, 'R2', '2026-09-01', '2026-09-01', 900],
      [SANTIAGO, 'R2', '2026-09-01', '2026-09-01', 900],
      [SANTIAGO, 'R1', '2026-09-06', '2026-09-06', 700],
    ]);
  });
});

describe("the promotion screens' days follow the organisation's market zone", () => {
  it('Promociones por tipo: Lima 2 of 12 listing-days, 2 promotions at 850; Santiago 2 of 10, 2 at 800', async () => {
    expect(await typeOf('lima')).toEqual([2, 12, 16.67, 2, 850, 15]);
    expect(await typeOf('santiago')).toEqual([2, 10, 20, 2, 800, 20]);
  });

  it('Promociones por duración: Lima two of 1 day (850, 15 %); Santiago two of 1 day (800, 20 %)', async () => {
    expect(await durationOf('lima')).toEqual([[1, 2, 850, 15]]);
    expect(await durationOf('santiago')).toEqual([[1, 2, 800, 20]]);
  });

  it("the drill-down lists each zone's promotions with that zone's days", async () => {
    expect(await drillOf('lima')).toEqual([
      ['Producto R1', '2026-08-31', '2026-08-31', 1],
      ['Producto R2', '2026-09-01', '2026-09-01', 1],
    ]);
    expect(await drillOf('santiago')).toEqual([
      ['Producto R1', '2026-09-06', '2026-09-06', 1],
      ['Producto R2', '2026-09-01', '2026-09-01', 1],
    ]);
  });

  it('range of Aug 31: Lima R1 at 800; Santiago no promotion that day', async () => {
    expect(await rangeOf('lima')).toEqual([800, 800, 800]);
    expect(await rangeOf('santiago')).toEqual([]);
  });

  it('scatter plot: Lima 800 and 900, Santiago 700 and 900 (buckets of 50)', async () => {
    expect(await scatterOf('lima')).toEqual([
      50,
      [
        [800, 1],
        [900, 1],
      ],
    ]);
    expect(await scatterOf('santiago')).toEqual([
      50,
      [
        [700, 1],
        [900, 1],
      ],
    ]);
  });
});

describe('a zone chosen after the data is in (Mexico City)', () => {
  it("reads Santiago's days for every figure until the 'rollup-zone' job built it, then Mexico City's", async () => {
    const pool = ctx.db.pool;
    const org = orgIds.mexico;
    // the moment after the change, before the job ran: the zone is the organisation's, its rows not ready
    await pool.query('update organisations set market_zone = $2 where id = $1', [org, MEXICO]);
    await pool.query('insert into rollup_zones (zone) values ($1)', [MEXICO]);
    // the listing-days and the promotions alike in Santiago's days (never Mexico City's days beside
    // Santiago's promotions)
    expect(await typeOf('mexico')).toEqual(await typeOf('santiago'));
    expect(await durationOf('mexico')).toEqual([[1, 2, 800, 20]]);
    expect(await drillOf('mexico')).toEqual(await drillOf('santiago'));

    // the change through Operaciones, as an administrator makes it: the zone is added and its job enqueued
    await pool.query('delete from rollup_zones where zone = $1', [MEXICO]);
    await pool.query('update organisations set market_zone = $2 where id = $1', [org, SANTIAGO]);
    const res = await ctx.app.inject({
      method: 'PATCH',
      url: '/v1/operations/settings',
      headers: { authorization: `JWT ${tokens.mexico}` },
      payload: { market_zone: MEXICO },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { rows: jobs } = await pool.query<{ id: string }>(
      `select id::text from pgboss.job where name = 'rollup-zone' and data->>'zone' = $1`,
      [MEXICO],
    );
    expect(jobs).toHaveLength(1);
    expect((await waitForJob(pool, jobs[0].id, { timeoutMs: 30_000 })).status).toBe('succeeded');
    // built from the history: equal to the recount (and Lima's, kept at ingest, still are)
    expect(await checkPromotions(pool)).toEqual([]);
    const { rows } = await pool.query(
      `select p.product_id, s.first_day::text as a, s.last_day::text as b from promo_spans s
         join products p on p.id = s.product_id where s.zone = $1 and s.seller_id = 7`,
      [MEXICO],
    );
    // R1's sale began at 22:30 and ended at 23:30 of Aug 31: no day of Mexico City has it
    expect(rows.map((r) => [r.product_id, r.a, r.b])).toEqual([['R2', '2026-08-31', '2026-09-01']]);

    expect(await typeOf('mexico')).toEqual([2, 12, 16.67, 1, 900, 10]);
    expect(await durationOf('mexico')).toEqual([[2, 1, 900, 10]]);
    expect(await drillOf('mexico')).toEqual([['Producto R2', '2026-08-31', '2026-09-01', 2]]);
    expect(await rangeOf('mexico')).toEqual([900, 900, 900]);
    expect(await scatterOf('mexico')).toEqual([50, [[900, 1]]]);
  });

  it('a later run is kept in Mexico City too (ingest writes every zone of rollup_zones)', async () => {
    const pool = ctx.db.pool;
    // Sep 8 05:30Z: 23:30 of Sep 7 in Mexico City, 00:30 of Sep 8 in Lima, 02:30 of Sep 8 in Santiago
    await observe(pool, 7, '2026-09-08T05:30:00Z', [
      {
        productId: 'R1',
        name: 'Producto R1',
        brand: 'Marca',
        classificationId: leaf,
        normalPrice: 1000,
        salePrice: 500,
      },
      { productId: 'R2', name: 'Producto R2', brand: 'Marca', classificationId: leaf, normalPrice: 1000 },
    ]);
    expect(await checkPromotions(pool)).toEqual([]);
    const { rows } = await pool.query(
      `select zone, first_day::text as a from promo_spans where seller_id = 7 and last_day is null order by zone`,
    );
    expect(rows.map((r) => [r.zone, r.a])).toEqual([
      [LIMA, '2026-09-08'],
      [MEXICO, '2026-09-07'],
      [SANTIAGO, '2026-09-08'],
    ]);
  });
});

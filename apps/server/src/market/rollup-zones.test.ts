import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../lib/jwt.js';
import { waitForJob } from '../platform/jobs/queue.js';
import { createTestContext, type TestContext } from '../test/context.js';
import {
  insertClassification,
  insertOrgWithLicense,
  insertSeller,
  insertUser,
  observe,
  seedReferenceData,
} from '../test/fixtures.js';
import { downloadReport } from '../test/report-download.js';
import { checkDailyRollups } from '../test/rollups-check.js';

// The shared daily roll-up's days follow each organisation's market zone (issue 25; migration 431,
// modules/ingest/zones.ts). Hand-built market, worked by hand (offsets of late Oct 2026: Santiago −03,
// Lima −05, Mexico City −06):
//
//   run (UTC)              Santiago        Lima             Mexico City     P (Pivote)   R (Rival)
//   Oct 30 16:00Z          Oct 30 13:00    Oct 30 11:00     Oct 30 10:00    1000         1000
//   Oct 31 16:00Z          Oct 31 13:00    Oct 31 11:00     Oct 31 10:00    1000         1000
//   Nov  1 04:30Z (R only) Nov  1 01:30    Oct 31 23:30     Oct 31 22:30    —            SALE 800 (20 %)
//   Nov  1 16:00Z          Nov  1 13:00    Nov  1 11:00     Nov  1 10:00    1000         1000
//   Nov  2 16:00Z          Nov  2 13:00    Nov  2 11:00     Nov  2 10:00    1000         1000
//
// A day's state is its last run's. In Lima (and Mexico City) Oct 31's last run is R's sale at 23:30 local:
// 1 of the 2 listings on promotion (50 %), average discount 20 %, monetary discount 200; R's average
// price that day 800. In Santiago that run is Nov 1's, whose last run (13:00) ends the sale: no day has a
// promotion (0 %, no discount), R's price is 1000 every day.

const LIMA = 'America/Lima';
const MEXICO = 'America/Mexico_City';
const SANTIAGO = 'America/Santiago';

let ctx: TestContext;
let leaf: number;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  const orgs: [string, string][] = [
    ['lima', LIMA],
    ['santiago', SANTIAGO],
    ['mexico', SANTIAGO], // chooses Mexico City after the data is in (below)
  ];
  const ids: Record<string, { user: number; org: number }> = {};
  ctx = await createTestContext({
    seed: async (db) => {
      const pool = db.pool;
      await seedReferenceData(pool);
      await insertSeller(pool, { id: 5, name: 'Pivote' });
      await insertSeller(pool, { id: 7, name: 'Rival' });
      leaf = await insertClassification(pool, 'Leches');
      for (const [name, zone] of orgs) {
        const { orgId } = await insertOrgWithLicense(pool, {
          orgName: name,
          sellers: [7],
          pivots: [5],
          currencies: ['CLP'],
          modules: ['promotions', 'dpm', 'reports', 'ecommerce_navigation', 'assortment'],
        });
        ids[name] = { user: await insertUser(pool, orgId, `${name}@example.com`), org: orgId };
        await pool.query('update users set is_admin = true where id = $1', [ids[name].user]);
        if (zone !== SANTIAGO) {
          // the zone joins the roll-up's zones before the market's data comes in, so ingest keeps it
          // from the first run (ready: its job, had it run then, found no history to build)
          await pool.query('update organisations set market_zone = $2 where id = $1', [orgId, zone]);
          await pool.query(
            'insert into rollup_zones (zone, ready) values ($1, true) on conflict do nothing',
            [zone],
          );
        }
      }
      const item = (id: string, p: object = {}) => ({
        productId: id,
        name: `Producto ${id}`,
        brand: 'Marca',
        classificationId: leaf,
        normalPrice: 1000,
        ...p,
      });
      const both = async (t: string) => {
        await observe(pool, 5, t, [item('P')]);
        await observe(pool, 7, t, [item('R')]);
      };
      await both('2026-10-30T16:00:00Z');
      await both('2026-10-31T16:00:00Z');
      await observe(pool, 7, '2026-11-01T04:30:00Z', [item('R', { salePrice: 800 })]);
      await both('2026-11-01T16:00:00Z');
      await both('2026-11-02T16:00:00Z');
    },
  });
  for (const [name] of orgs)
    tokens[name] = signToken(
      { sub: ids[name].user, org: ids[name].org, ver: 0 },
      ctx.config.JWT_SECRET,
      3600,
    );
}, 120_000);
afterAll(() => ctx?.close());

const auth = (who: string) => ({ authorization: `JWT ${tokens[who]}` });

/** The dashboard's per-day figures of one card over Oct 30 … Nov 2. */
async function dashboardDays(who: string, card: string) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/v2/dashboard/pre',
    headers: auth(who),
    payload: { from_date: '2026-10-30', to_date: '2026-11-02', currency: 'CLP' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const cards = res.json().groups.flatMap((g: { cards: unknown[] }) => g.cards);
  const c = cards.find((x: { key: string }) => x.key === card);
  return (c.days as { date: string; value: number | null }[]).map((d) => [d.date, d.value]);
}

/** The assortment report of Oct 31: R's state day and average price. */
async function assortmentReport(who: string) {
  const rows = await downloadReport(ctx.app, auth(who), {
    report_type: 'assortment',
    format: 'xlsx',
    from_date: '2026-10-31',
    to_date: '2026-10-31',
    sellers: [7],
  });
  const header = rows[0] as string[];
  const rival = rows.find((r) => r[header.indexOf('eCommerce')] === 'Rival');
  return rival?.[header.indexOf('Precio promedio (CLP)')];
}

/** Promociones por día (level) over Oct 26 … Nov 1 (one Monday week; runs on Oct 30, 31, Nov 1): R's week. */
async function promotionsByDay(who: string) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/v1/promotion/level',
    headers: { ...auth(who), 'x-module-authorization': 'promotions' },
    payload: { from_date: '2026-10-26', to_date: '2026-11-01', currency: 'CLP', classificationsIds: [leaf] },
  });
  expect(res.statusCode, res.body).toBe(200);
  const rival = res.json().items.find((i: { seller: { id: number } }) => i.seller.id === 7);
  const w = rival.classifications[0].weeks[0];
  return [w.week, w.promoted, w.published, w.percentage];
}

/** Promociones por tipo over Oct 31 … Nov 1: R's share of listing-days on sale. */
async function promotionsByType(who: string) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/v1/promotion/type',
    headers: { ...auth(who), 'x-module-authorization': 'promotions' },
    payload: { from_date: '2026-10-31', to_date: '2026-11-01', currency: 'CLP', classificationsIds: [leaf] },
  });
  expect(res.statusCode, res.body).toBe(200);
  const c = res.json().items.find((i: { seller: { id: number } }) => i.seller.id === 7).classifications[0];
  return [c.sale.promoted, c.published, c.sale.percentage];
}

describe('the daily roll-up is kept per zone at ingest', () => {
  it('its rows of each zone equal their recomputation from the history', async () => {
    for (const zone of [SANTIAGO, LIMA])
      expect(await checkDailyRollups(ctx.db.pool, undefined, undefined, zone)).toEqual([]);
  });

  it('Oct 31 in Lima has R on promotion; no day of Santiago has', async () => {
    const { rows } = await ctx.db.pool.query(
      `select zone, day::text as day, promoted from rollup_daily_brand where seller_id = 7 order by zone, day`,
    );
    expect(rows.map((r) => [r.zone, r.day, r.promoted])).toEqual([
      [LIMA, '2026-10-30', 0],
      [LIMA, '2026-10-31', 1],
      [LIMA, '2026-11-01', 0],
      [LIMA, '2026-11-02', 0],
      [SANTIAGO, '2026-10-30', 0],
      [SANTIAGO, '2026-10-31', 0],
      [SANTIAGO, '2026-11-01', 0],
      [SANTIAGO, '2026-11-02', 0],
    ]);
  });
});

describe("the screens' days follow the organisation's market zone", () => {
  it('dashboard: promotions share per day — Lima 50 % on Oct 31, Santiago 0 % every day', async () => {
    expect(await dashboardDays('lima', 'in_discount')).toEqual([
      ['2026-10-30', 0],
      ['2026-10-31', 50],
      ['2026-11-01', 0],
      ['2026-11-02', 0],
    ]);
    expect(await dashboardDays('santiago', 'in_discount')).toEqual([
      ['2026-10-30', 0],
      ['2026-10-31', 0],
      ['2026-11-01', 0],
      ['2026-11-02', 0],
    ]);
  });

  it('dashboard: average discount (roll-up) and monetary discount (price intervals) agree per zone', async () => {
    expect((await dashboardDays('lima', 'average_discount'))[1]).toEqual(['2026-10-31', 20]);
    expect((await dashboardDays('lima', 'monetary_discount'))[1]).toEqual(['2026-10-31', 200]);
    for (const card of ['average_discount', 'monetary_discount'])
      expect((await dashboardDays('santiago', card)).map((d) => d[1])).toEqual([null, null, null, null]);
  });

  it('Promociones por día: R on promotion 1 of 3 listing-days in Lima (33.33 %), 0 in Santiago', async () => {
    expect(await promotionsByDay('lima')).toEqual(['2026-10-26', 1, 3, 33.33]);
    expect(await promotionsByDay('santiago')).toEqual(['2026-10-26', 0, 3, 0]);
  });

  it('Promociones por tipo: the sale share of Oct 31 … Nov 1 is 50 % in Lima, 0 % in Santiago', async () => {
    expect(await promotionsByType('lima')).toEqual([1, 2, 50]);
    expect(await promotionsByType('santiago')).toEqual([0, 2, 0]);
  });

  it("assortment report of Oct 31: R's average price 800 in Lima, 1000 in Santiago", async () => {
    expect(await assortmentReport('lima')).toBe(800);
    expect(await assortmentReport('santiago')).toBe(1000);
  });
});

describe('a zone chosen after the data is in', () => {
  it("is built by the 'rollup-zone' job; until then the organisation reads Santiago's days", async () => {
    const pool = ctx.db.pool;
    const ready = async () =>
      (await pool.query('select ready from rollup_zones where zone = $1', [MEXICO])).rows[0]?.ready;
    const { rows: org } = await pool.query('select org_id from users where email = $1', [
      'mexico@example.com',
    ]);
    // the moment after the change, before the job ran: the zone is the organisation's, its rows not ready
    await pool.query('update organisations set market_zone = $2 where id = $1', [org[0].org_id, MEXICO]);
    await pool.query('insert into rollup_zones (zone) values ($1)', [MEXICO]);
    // every figure in Santiago's days (the deployment's), none half in Mexico City's
    expect((await dashboardDays('mexico', 'in_discount')).map((d) => d[1])).toEqual([0, 0, 0, 0]);
    expect((await dashboardDays('mexico', 'monetary_discount')).map((d) => d[1])).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(await assortmentReport('mexico')).toBe(1000);
    expect(await promotionsByDay('mexico')).toEqual(['2026-10-26', 0, 3, 0]);

    // the change through Operaciones, as an administrator makes it: the zone is added and its job enqueued
    await pool.query('delete from rollup_zones where zone = $1', [MEXICO]);
    await pool.query('update organisations set market_zone = $2 where id = $1', [org[0].org_id, SANTIAGO]);
    const res = await ctx.app.inject({
      method: 'PATCH',
      url: '/v1/operations/settings',
      headers: auth('mexico'),
      payload: { market_zone: MEXICO },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { rows: jobs } = await pool.query<{ id: string; zone: string }>(
      `select id::text, data->>'zone' as zone from pgboss.job where name = 'rollup-zone'`,
    );
    expect(jobs.map((j) => j.zone)).toEqual([MEXICO]);
    expect((await waitForJob(pool, jobs[0].id, { timeoutMs: 30_000 })).status).toBe('succeeded');
    expect(await ready()).toBe(true);
    expect(await checkDailyRollups(pool, undefined, undefined, MEXICO)).toEqual([]);
    // 22:30 of Oct 31 in Mexico City: Oct 31's last run, as in Lima
    expect(await dashboardDays('mexico', 'in_discount')).toEqual([
      ['2026-10-30', 0],
      ['2026-10-31', 50],
      ['2026-11-01', 0],
      ['2026-11-02', 0],
    ]);
    expect((await dashboardDays('mexico', 'monetary_discount'))[1]).toEqual(['2026-10-31', 200]);
    expect(await assortmentReport('mexico')).toBe(800);
    expect(await promotionsByDay('mexico')).toEqual(['2026-10-26', 1, 3, 33.33]);
  });

  it('a zone no organisation uses any more is dropped by the same job (ingest stops keeping it)', async () => {
    const pool = ctx.db.pool;
    const res = await ctx.app.inject({
      method: 'PATCH',
      url: '/v1/operations/settings',
      headers: auth('mexico'),
      payload: { market_zone: SANTIAGO },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { rows: jobs } = await pool.query<{ id: string }>(
      `select id::text from pgboss.job where name = 'rollup-zone' and data->>'zone' = $1 order by created_on`,
      [MEXICO],
    );
    expect(jobs).toHaveLength(2); // its build, then its drop
    expect((await waitForJob(pool, jobs[1].id, { timeoutMs: 30_000 })).status).toBe('succeeded');
    const left = await pool.query(
      `select (select count(*) from rollup_zones where zone = $1)::int as zones,
              (select count(*) from rollup_daily_brand where zone = $1)::int as daily,
              (select count(*) from promo_daily where zone = $1)::int as promo,
              (select count(*) from dashboard_day_figures where zone = $1)::int as figures`,
      [MEXICO],
    );
    expect(left.rows[0]).toEqual({ zones: 0, daily: 0, promo: 0, figures: 0 });
    // Lima is still some organisation's: kept
    expect((await pool.query('select ready from rollup_zones where zone = $1', [LIMA])).rows).toEqual([
      { ready: true },
    ]);
  });

  it('a zone the roll-up keeps already adds no job', async () => {
    const res = await ctx.app.inject({
      method: 'PATCH',
      url: '/v1/operations/settings',
      headers: auth('santiago'),
      payload: { market_zone: LIMA },
    });
    expect(res.statusCode, res.body).toBe(200);
    const jobs = await ctx.db.pool.query(
      `select count(*)::int as n from pgboss.job where name = 'rollup-zone' and data->>'zone' = any($1)`,
      [[LIMA, SANTIAGO]], // Lima is kept; Santiago, left, is the deployment's: never dropped
    );
    expect(jobs.rows[0].n).toBe(0);
    expect((await dashboardDays('santiago', 'in_discount'))[1]).toEqual(['2026-10-31', 50]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.js';
import { insertClassification, insertSeller, observe, seedReferenceData } from '../../test/fixtures.js';
import { checkDailyRollups } from '../../test/rollups-check.js';
import { insertZoneOrgs, type ZoneOrgs, zoneTokens } from '../../test/zone-orgs.js';
import { buildRollupZone, dropRollupZone } from '../ingest/zones.js';
import { checkAssortment } from './check.js';
import '../rollups.js';

// Surtido's days follow the organisation's market zone (issue 25; migrations 431 and 480). Hand-built
// market: Pivote (5) with one listing always in stock, Rival (7) with A (1000) and B (2000). Offsets in
// force: America/Santiago −03 until 2026-04-05T03:00Z, then −04 (clocks back at 24:00 of Apr 4: that day
// lasts 25 h) until 2026-09-06T04:00Z, then −03; America/Lima −05 and America/Bogota −05 all year;
// America/Mexico_City −06 all year.
//
//   run (UTC)                  Santiago          Lima              Mexico City       Rival's state
//   r1 2026-04-03 16:00 both   Apr 3 12:00       Apr 3 11:00       Apr 3 10:00       A in, B in
//   r2 2026-04-05 03:30 Rival  Apr 4 23:30 (−04) Apr 4 22:30       Apr 4 21:30       A in, B out
//   r3 2026-04-06 16:00 both   Apr 6 12:00       Apr 6 11:00       Apr 6 10:00       A in, B in
//   r4 2026-10-30 16:00 both   Oct 30 13:00      Oct 30 11:00      Oct 30 10:00      A in, B in
//   r5 2026-10-31 16:00 both   Oct 31 13:00      Oct 31 11:00      Oct 31 10:00      A in, B in
//   r6 2026-11-01 04:30 Rival  Nov 1 01:30       Oct 31 23:30      Oct 31 22:30      A out, B in
//   r7 2026-11-01 16:00 both   Nov 1 13:00       Nov 1 11:00       Nov 1 10:00       A out, B in
//   r8 2026-11-02 16:00 both   Nov 2 13:00       Nov 2 11:00       Nov 2 10:00       A in, B in
//
// DST: r2 is Apr 4 in every zone (at −03, Santiago's winter offset not applied, it would be 00:30 of
// Apr 5): B went out on Apr 4, back on Apr 6, everywhere. Month end: r6 is Oct 31 (the day's last run) in
// Lima and Mexico City and Nov 1 in Santiago, so A went out on Oct 31 there, on Nov 1 in Santiago:
//   Oct 31 alone:  Lima/Mexico went out 1, out of stock at the end 1 (A) · Santiago 0 and 0
//   Nov 1 alone:   Lima/Mexico went out 0, out at the end 1 · Santiago went out 1, out 1
//   Oct 31–Nov 2:  went out 1 and back 1 everywhere; the drill-down's A: Lima/Mexico out Oct 31, back
//                  Nov 2, 2 days out; Santiago out Nov 1, back Nov 2, 1 day out
//   out on Nov 1:  A out since Oct 31 (1 day) in Lima/Mexico, since Nov 1 (0 days) in Santiago

const SANTIAGO = 'America/Santiago';
const LIMA = 'America/Lima';
const MEXICO = 'America/Mexico_City';
const BOGOTA = 'America/Bogota';

let ctx: TestContext;
let tokens: Record<string, string> = {};
let ids: ZoneOrgs;

beforeAll(async () => {
  const orgs: [string, string][] = [
    ['santiago', SANTIAGO],
    ['lima', LIMA],
    ['mexico', MEXICO],
    ['bogota', SANTIAGO], // chooses Bogotá after the data is in (below)
  ];
  ctx = await createTestContext({
    seed: async (db) => {
      const pool = db.pool;
      await seedReferenceData(pool);
      await insertSeller(pool, { id: 5, name: 'Pivote' });
      await insertSeller(pool, { id: 7, name: 'Rival' });
      const leaf = await insertClassification(pool, 'Leches');
      ids = await insertZoneOrgs(pool, orgs, {
        sellers: [7],
        pivots: [5],
        currencies: ['CLP'],
        modules: ['assortment'],
      });
      const item = (id: string, price: number, stockOut = false) => ({
        productId: id,
        name: `Producto ${id}`,
        brand: 'Marca',
        classificationId: leaf,
        normalPrice: price,
        stockOut,
      });
      const rival = (aOut: boolean, bOut: boolean) => [item('A', 1000, aOut), item('B', 2000, bOut)];
      const both = async (t: string, aOut: boolean, bOut: boolean) => {
        await observe(pool, 5, t, [item('P', 1500)]);
        await observe(pool, 7, t, rival(aOut, bOut));
      };
      await both('2026-04-03T16:00:00Z', false, false);
      await observe(pool, 7, '2026-04-05T03:30:00Z', rival(false, true));
      await both('2026-04-06T16:00:00Z', false, false);
      await both('2026-10-30T16:00:00Z', false, false);
      await both('2026-10-31T16:00:00Z', false, false);
      await observe(pool, 7, '2026-11-01T04:30:00Z', rival(true, false));
      await both('2026-11-01T16:00:00Z', true, false);
      await both('2026-11-02T16:00:00Z', false, false);
    },
  });
  tokens = zoneTokens(ids, ctx.config.JWT_SECRET);
}, 120_000);
afterAll(() => ctx?.close());

async function post(who: string, url: string, payload: Record<string, unknown>) {
  const res = await ctx.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `JWT ${tokens[who]}` },
    payload: { currency: 'CLP', sellers: [7], ...payload },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Surtido por stock, Rival's row: [went out, back in, out of stock at the end, listings at the end]. */
async function stockRow(who: string, from: string, to: string) {
  const body = await post(who, '/v1/assortment/stock', { from_date: from, to_date: to });
  const r = body.sellers.find((s: { id: number | null }) => s.id === 7);
  return [r.went_out_of_stock, r.back_in_stock, r.out_of_stock, r.total_products];
}

/** A stock drill-down of Rival: [listing, event date, back date, days out] per row. */
async function stockList(who: string, stock: string, from: string, to: string) {
  const body = await post(who, '/v1/assortment/stock/products', {
    from_date: from,
    to_date: to,
    stock,
    seller_id: 7,
    page: 1,
    page_size: 10,
  });
  return body.items.map((i: Record<string, unknown>) => [i.name, i.event_date, i.back_date, i.days_out]);
}

describe("Surtido's days in the organisation's market zone", () => {
  it('the read model of every kept zone equals its recomputation from the history', async () => {
    expect(await checkAssortment(ctx.db.pool)).toEqual([]);
    for (const zone of [SANTIAGO, LIMA, MEXICO])
      expect(await checkDailyRollups(ctx.db.pool, undefined, undefined, zone)).toEqual([]);
    const { rows } = await ctx.db.pool.query(
      `select z.zone, a.first_day::text as first, a.last_day::text as last, a.out_day::text as out_day
         from assortment_spans a join products p on p.id = a.product_id join zone_ids z on z.id = a.zone_id
        where p.product_id = 'A' and a.stock_out order by 1`,
    );
    expect(rows).toEqual([
      { zone: LIMA, first: '2026-10-31', last: '2026-11-01', out_day: '2026-10-31' },
      { zone: MEXICO, first: '2026-10-31', last: '2026-11-01', out_day: '2026-10-31' },
      { zone: SANTIAGO, first: '2026-11-01', last: '2026-11-01', out_day: '2026-11-01' },
    ]);
  });

  it('DST change in Santiago (Apr 4 lasts 25 h): B went out on Apr 4 in every zone, back on Apr 6', async () => {
    for (const who of ['santiago', 'lima', 'mexico']) {
      expect([who, await stockRow(who, '2026-04-04', '2026-04-04')]).toEqual([who, [1, 0, 1, 2]]);
      expect([who, await stockRow(who, '2026-04-05', '2026-04-06')]).toEqual([who, [0, 1, 0, 2]]);
    }
  });

  it('23:30 of Oct 31 in Lima and Mexico City (Nov 1 in Santiago): A went out on Oct 31 there', async () => {
    for (const who of ['lima', 'mexico']) {
      expect([who, await stockRow(who, '2026-10-31', '2026-10-31')]).toEqual([who, [1, 0, 1, 2]]);
      expect([who, await stockRow(who, '2026-11-01', '2026-11-01')]).toEqual([who, [0, 0, 1, 2]]);
      expect([who, await stockRow(who, '2026-10-31', '2026-11-02')]).toEqual([who, [1, 1, 0, 2]]);
    }
    expect(await stockRow('santiago', '2026-10-31', '2026-10-31')).toEqual([0, 0, 0, 2]);
    expect(await stockRow('santiago', '2026-11-01', '2026-11-01')).toEqual([1, 0, 1, 2]);
    expect(await stockRow('santiago', '2026-10-31', '2026-11-02')).toEqual([1, 1, 0, 2]);
  });

  it("the drill-downs' dates are the zone's days", async () => {
    for (const who of ['lima', 'mexico']) {
      expect(await stockList(who, 'went_out', '2026-10-31', '2026-11-02')).toEqual([
        ['Producto A', '2026-10-31', '2026-11-02', 2],
      ]);
      expect(await stockList(who, 'out', '2026-11-01', '2026-11-01')).toEqual([
        ['Producto A', '2026-10-31', null, 1],
      ]);
    }
    expect(await stockList('santiago', 'went_out', '2026-10-31', '2026-11-02')).toEqual([
      ['Producto A', '2026-11-01', '2026-11-02', 1],
    ]);
    expect(await stockList('santiago', 'out', '2026-11-01', '2026-11-01')).toEqual([
      ['Producto A', '2026-11-01', null, 0],
    ]);
    // back in stock on Nov 2 everywhere: its previous in-stock day is the zone's day of r6's change
    expect(await stockList('lima', 'back_in', '2026-11-02', '2026-11-02')).toEqual([
      ['Producto A', '2026-11-02', null, 2], // in stock last on Oct 31 (Lima): Nov 2 − Oct 31
    ]);
    expect(await stockList('santiago', 'back_in', '2026-11-02', '2026-11-02')).toEqual([
      ['Producto A', '2026-11-02', null, 1], // in stock last on Nov 1 (Santiago, 01:30): Nov 2 − Nov 1
    ]);
  });
});

describe('a zone chosen after the data is in', () => {
  it("reads Santiago's days until the rollup-zone build; then the zone's, equal to Lima's (both −05)", async () => {
    const pool = ctx.db.pool;
    await pool.query('update organisations set market_zone = $2 where id = $1', [ids.bogota.org, BOGOTA]);
    await pool.query('insert into rollup_zones (zone) values ($1)', [BOGOTA]);
    // not ready: every figure and list in the deployment's days
    expect(await stockRow('bogota', '2026-10-31', '2026-10-31')).toEqual([0, 0, 0, 2]);
    expect(await stockList('bogota', 'went_out', '2026-10-31', '2026-11-02')).toEqual([
      ['Producto A', '2026-11-01', '2026-11-02', 1],
    ]);
    expect((await buildRollupZone(pool, BOGOTA)).sellers).toBe(2);
    expect(await stockRow('bogota', '2026-10-31', '2026-10-31')).toEqual([1, 0, 1, 2]);
    expect(await stockList('bogota', 'went_out', '2026-10-31', '2026-11-02')).toEqual([
      ['Producto A', '2026-10-31', '2026-11-02', 2],
    ]);
    // the rebuilt rows are the rows ingest kept for Lima, zone aside (the spans keep the zone's id)
    const rowsOf = async (table: string, zone: string) =>
      (
        await pool.query(
          table === 'assortment_spans'
            ? `select a.* from assortment_spans a join zone_ids z on z.id = a.zone_id where z.zone = $1
                order by 1, 2, 3, 4`
            : `select * from ${table} where zone = $1 order by 1, 2, 3, 4`,
          [zone],
        )
      ).rows.map(({ zone: _z, zone_id: _i, ...r }) => r);
    for (const table of ['assortment_spans', 'assortment_events_cum'])
      expect(await rowsOf(table, BOGOTA)).toEqual(await rowsOf(table, LIMA));
    expect((await rowsOf('assortment_spans', BOGOTA)).length).toBeGreaterThan(4);
    expect(await checkAssortment(pool)).toEqual([]);
  });

  it("leaving the zone drops its spans and running totals with the zone's other rows", async () => {
    const pool = ctx.db.pool;
    await pool.query('update organisations set market_zone = $2 where id = $1', [ids.bogota.org, SANTIAGO]);
    expect(await dropRollupZone(pool, BOGOTA)).toBe(true);
    const { rows } = await pool.query(
      `select (select count(*) from assortment_spans a join zone_ids z on z.id = a.zone_id where z.zone = $1)::int as spans,
              (select count(*) from assortment_events_cum where zone = $1)::int as cum,
              (select count(*) from assortment_spans a join zone_ids z on z.id = a.zone_id where z.zone = $2)::int as lima`,
      [BOGOTA, LIMA],
    );
    expect(rows[0]).toMatchObject({ spans: 0, cum: 0 });
    expect(rows[0].lima).toBeGreaterThan(4); // another organisation's zone: kept
  });
});

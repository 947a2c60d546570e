import { isoDateInZone, seenInWindow } from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../lib/jwt.js';
import { dispatchDueSubscriptions } from '../modules/reports/subscriptions.js';
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
import { resolvePeriod, today } from './index.js';

// A market's own zone (issue 25): the organisation's market zone decides what a day is for its periods
// and windows. Edges worked out by hand (offsets in force on those dates):
//   America/Santiago −03 from 2025-09-07 to 2026-04-04, −04 from 2026-04-05 (clocks back at 24:00 of
//     04-04: that day lasts 25 h) to 2026-09-05, −03 again from 2026-09-06 (clocks forward: 00:00 to
//     00:59 of 09-06 do not exist, the day starts at 01:00 local = 04:00Z);
//   America/Lima −05 all year; America/Mexico_City −06 all year (no DST since 2022).
//   23:30 on 2026-10-31 in Lima = 2026-11-01T04:30Z (01:30 of 11-01 in Santiago);
//   23:30 on 2026-10-31 in Mexico City = 2026-11-01T05:30Z (02:30 of 11-01 in Santiago).

const LIMA = 'America/Lima';
const MEXICO = 'America/Mexico_City';
const SANTIAGO = 'America/Santiago';
const LIMA_2330 = new Date('2026-11-01T04:30:00Z');
const MEXICO_2330 = new Date('2026-11-01T05:30:00Z');

let ctx: TestContext;
let leaf: number;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  const orgs: [string, string][] = [
    ['lima', LIMA],
    ['mexico', MEXICO],
    ['santiago', SANTIAGO],
  ];
  const ids: Record<string, { user: number; org: number }> = {};
  ctx = await createTestContext({
    seed: async (db) => {
      const pool = db.pool;
      await seedReferenceData(pool);
      await insertSeller(pool, { id: 5, name: 'Pivote' });
      await insertSeller(pool, { id: 7, name: 'Rival' });
      await insertSeller(pool, { id: 8, name: 'Rival DST' });
      leaf = await insertClassification(pool, 'Leches');
      for (const [name, zone] of orgs) {
        const { orgId } = await insertOrgWithLicense(pool, {
          orgName: name,
          sellers: [7, 8],
          pivots: [5],
          currencies: ['CLP'],
          modules: ['dpm', 'reports'],
        });
        await pool.query('update organisations set market_zone = $2 where id = $1', [orgId, zone]);
        ids[name] = { user: await insertUser(pool, orgId, `${name}@example.com`), org: orgId };
        // each user shows times in the market's zone too (the report's Desde/Hasta)
        await pool.query('update users set timezone = $2 where id = $1', [ids[name].user, zone]);
      }
      const item = (id: string) => ({
        productId: id,
        ean: `78000000000${id === 'L' ? '11' : '22'}`,
        name: `Producto ${id}`,
        brand: 'Marca',
        classificationId: leaf,
        normalPrice: 1000,
      });
      // the pivot's listing L first seen at 23:30 of Oct 31 in Lima, M at 23:30 of Oct 31 in Mexico City
      await observe(pool, 5, LIMA_2330, [item('L')], 'partial');
      await observe(pool, 5, MEXICO_2330, [item('L'), item('M')], 'partial');
      await observe(pool, 7, MEXICO_2330, [item('L'), item('M')]);
      // Santiago's clocks go forward at 24:00 of Sep 5 (−04 → −03): D1 first seen 03:30Z of Sep 6 (23:30 of
      // Sep 5 there), D2 at 03:30Z of Sep 7 (00:30 of Sep 7): the same hour in UTC, on either side of a
      // day's end, because Sep 5 ends at 04:00Z and Sep 6 (23 hours) at 03:00Z
      await observe(
        pool,
        8,
        new Date('2026-09-06T03:30:00Z'),
        [{ ...item('D1'), ean: '7800000000033' }],
        'partial',
      );
      await observe(
        pool,
        8,
        new Date('2026-09-07T03:30:00Z'),
        [{ ...item('D2'), ean: '7800000000044' }],
        'partial',
      );
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

const sql = async <T>(text: string, args: unknown[]) =>
  (await ctx.db.pool.query<{ v: T }>(`select ${text} as v`, args)).rows[0].v;
const iso = (d: Date) => d.toISOString();

describe('days of a zone: SQL vigia_day / vigia_day_start = the domain, at the edges', () => {
  it('23:30 on the last day of a month is still that day in Lima and Mexico City, not in Santiago', async () => {
    for (const [t, zone, want] of [
      [LIMA_2330, LIMA, '2026-10-31'],
      [LIMA_2330, SANTIAGO, '2026-11-01'],
      [MEXICO_2330, MEXICO, '2026-10-31'],
      [MEXICO_2330, LIMA, '2026-11-01'], // 00:30 in Lima
      [MEXICO_2330, SANTIAGO, '2026-11-01'],
    ] as const) {
      expect(isoDateInZone(t, zone)).toBe(want);
      expect(today(t, zone)).toBe(want);
      expect(await sql<string>('vigia_day($1::timestamptz, $2)::text', [t, zone])).toBe(want);
    }
  });

  it('a day starts at local midnight of its zone; across Santiago DST changes too', async () => {
    for (const [day, zone, want] of [
      ['2026-12-01', LIMA, '2026-12-01T05:00:00.000Z'],
      ['2026-12-01', MEXICO, '2026-12-01T06:00:00.000Z'],
      ['2026-12-01', SANTIAGO, '2026-12-01T03:00:00.000Z'],
      ['2026-04-04', SANTIAGO, '2026-04-04T03:00:00.000Z'], // −03 …
      ['2026-04-05', SANTIAGO, '2026-04-05T04:00:00.000Z'], // … −04: 04-04 lasted 25 hours
      ['2026-09-06', SANTIAGO, '2026-09-06T04:00:00.000Z'], // midnight does not exist: 01:00 −03
      ['2026-09-07', SANTIAGO, '2026-09-07T03:00:00.000Z'], // 09-06 lasted 23 hours
    ] as const) {
      const start = await sql<Date>('vigia_day_start($1::date, $2)', [day, zone]);
      expect(iso(start), `${day} ${zone}`).toBe(want);
      // the instant is in that day of the zone, and the instant before it is not
      expect(isoDateInZone(start, zone)).toBe(day);
      expect(isoDateInZone(new Date(start.getTime() - 1), zone)).not.toBe(day);
    }
  });

  it('window membership: vigia_seen_in = domain seenInWindow, per zone', async () => {
    // first seen 23:30 of Oct 31 in Lima; window 10-01 … 10-31
    for (const [zone, want] of [
      [LIMA, true],
      [MEXICO, true],
      [SANTIAGO, false],
    ] as const) {
      const end = await sql<Date>(`vigia_day_start('2026-11-01'::date, $1)`, [zone]);
      const start = await sql<Date>(`vigia_day_start('2026-10-01'::date, $1)`, [zone]);
      expect(seenInWindow(LIMA_2330.getTime(), LIMA_2330.getTime(), start.getTime(), end.getTime())).toBe(
        want,
      );
      expect(
        await sql<boolean>(
          `vigia_seen_in($1::timestamptz, $1::timestamptz, '2026-10-01', '2026-10-31', $2)`,
          [LIMA_2330, zone],
        ),
      ).toBe(want);
    }
  });

  it("resolvePeriod's default end is today in the organisation's zone", () => {
    const opts = { maxDays: 400, now: LIMA_2330 };
    const f = { from: 'from_date', to: 'to_date' };
    expect(resolvePeriod({}, f, { ...opts, zone: LIMA }).to).toBe('2026-10-31');
    expect(resolvePeriod({}, f, { ...opts, zone: SANTIAGO }).to).toBe('2026-11-01');
    // 'not after today': 11-01 is tomorrow in Lima at that instant, today in Santiago
    const nov1 = { from: '2026-10-25', to: '2026-11-01' };
    expect(() => resolvePeriod(nov1, f, { ...opts, zone: LIMA, notAfterToday: true })).toThrow(
      /posterior a hoy/,
    );
    expect(resolvePeriod(nov1, f, { ...opts, zone: SANTIAGO, notAfterToday: true }).to).toBe('2026-11-01');
  });
});

describe("a route's window follows the organisation's market zone", () => {
  const kpi = async (who: string) => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/v2/navigation/dpm/kpi?from_date=2026-10-01&to_date=2026-10-31',
      headers: { authorization: `JWT ${tokens[who]}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().total as number;
  };

  it('October holds L (first seen 23:30 of Oct 31 in Lima) in Lima, L and M in Mexico City, none in Santiago', async () => {
    expect(await kpi('lima')).toBe(1);
    expect(await kpi('mexico')).toBe(2);
    expect(await kpi('santiago')).toBe(0);
  });
});

describe("the product detail's days follow the organisation's market zone", () => {
  // M (pivot) first seen 23:30 of Oct 31 in Mexico City = 05:30Z Nov 1: Oct 31 ends at 05:00Z in Lima,
  // 06:00Z in Mexico City, 03:00Z in Santiago; so M has a price at the end of Oct 31 in Mexico City only.
  // L, first seen 04:30Z, has one in Lima and Mexico City, not in Santiago.
  const history = async (who: string, sku: string, from = '2026-10-30', to = '2026-11-01', seller = 5) => {
    const { rows } = await ctx.db.pool.query<{ id: number }>(
      `select id from products where seller_id = $2 and product_id = $1`,
      [sku, seller],
    );
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/historical/complete/',
      headers: { authorization: `JWT ${tokens[who]}` },
      payload: { product_id: rows[0].id, from_date: from, to_date: to, currency: 'CLP' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const mine = res.json().sellers.find((x: { id: number }) => x.id === seller);
    return (mine.prices as { date: string; price: number | null }[]).map((p) => [p.date, p.price]);
  };

  it('/v1/historical/complete/: the end of Oct 31 is that of the market zone', async () => {
    // the series has a point for each day with a price at its end
    expect(await history('lima', 'L')).toEqual([
      ['2026-10-31', 1000],
      ['2026-11-01', 1000],
    ]);
    expect(await history('mexico', 'L')).toEqual([
      ['2026-10-31', 1000],
      ['2026-11-01', 1000],
    ]);
    expect(await history('santiago', 'L')).toEqual([['2026-11-01', 1000]]);
    expect(await history('lima', 'M')).toEqual([['2026-11-01', 1000]]);
    expect(await history('mexico', 'M')).toEqual([
      ['2026-10-31', 1000],
      ['2026-11-01', 1000],
    ]);
    expect(await history('santiago', 'M')).toEqual([['2026-11-01', 1000]]);
  });
  it("across Santiago's DST change: Sep 5 ends at 04:00Z, Sep 6 (23 hours) at 03:00Z", async () => {
    const days = (who: string, sku: string) => history(who, sku, '2026-09-04', '2026-09-07', 8);
    expect(await days('santiago', 'D1')).toEqual([
      ['2026-09-05', 1000],
      ['2026-09-06', 1000],
      ['2026-09-07', 1000],
    ]);
    expect(await days('santiago', 'D2')).toEqual([['2026-09-07', 1000]]);
    // Lima (−05): 03:30Z is 22:30 of the day before both times
    expect((await days('lima', 'D2'))[0]).toEqual(['2026-09-06', 1000]);
  });
});

describe("a report's window follows the organisation's market zone, its times the user's zone", () => {
  // The price history report of Oct 31: intervals that overlap that day of the market zone. Lima: the
  // pivot's L only (from 04:30Z); Mexico City: L and M of the pivot and of Rival (from 05:30Z); Santiago:
  // none (its Oct 31 ended at 03:00Z).
  const report = async (who: string) => {
    const rows = await downloadReport(
      ctx.app,
      { authorization: `JWT ${tokens[who]}` },
      { report_type: 'prices', format: 'xlsx', from_date: '2026-10-31', to_date: '2026-10-31', sellers: [7] },
    );
    const header = rows[0] as string[];
    return rows.slice(1).map((r) => ({
      seller: r[header.indexOf('eCommerce')],
      sku: r[header.indexOf('ID eCommerce')],
      from: r[header.indexOf('Desde')],
    }));
  };
  const wall = (v: unknown) =>
    v instanceof Date ? v.toISOString().slice(0, 16).replace('T', ' ') : String(v);

  it('Oct 31 holds 1 interval in Lima, 4 in Mexico City, none in Santiago; Desde in local time', async () => {
    const lima = await report('lima');
    expect(lima.map((r) => [r.seller, r.sku, wall(r.from)])).toEqual([['Pivote', 'L', '2026-10-31 23:30']]);
    const mexico = await report('mexico');
    expect(mexico.map((r) => `${r.seller} ${r.sku}`).sort()).toEqual([
      'Pivote L',
      'Pivote M',
      'Rival L',
      'Rival M',
    ]);
    // M of the pivot first seen at 23:30 of Oct 31 in Mexico City
    expect(wall(mexico.find((r) => r.seller === 'Pivote' && r.sku === 'M')?.from)).toBe('2026-10-31 23:30');
    expect(await report('santiago')).toEqual([]);
  });
});

describe("a report subscription covers the organisation's market days", () => {
  it("sent at 23:30 of Oct 31 in Lima, a daily report of a Lima market is Oct 31's, whatever the recipient's zone", async () => {
    const pool = ctx.db.pool;
    // the recipient shows times in Santiago, where it is already 01:30 of Nov 1
    await pool.query(`update users set timezone = $2 where email = $1`, ['lima@example.com', SANTIAGO]);
    try {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/v1/subscriptions/',
        headers: { authorization: `JWT ${tokens.lima}`, 'x-module-authorization': 'reports' },
        payload: { report_type: 'prices', email: 'lima@example.com', frequency: 'daily', hour: 8 },
      });
      expect(res.statusCode, res.body).toBe(200);
      await pool.query(`update report_subscriptions set next_run_at = $2 where email = $1`, [
        'lima@example.com',
        LIMA_2330,
      ]);
      const [taskId] = await dispatchDueSubscriptions(pool, ctx.config, LIMA_2330);
      expect(taskId).toBeTruthy();
      const { rows } = await pool.query(
        `select params->>'from' as "from", params->>'to' as "to" from export_tasks where id = $1`,
        [taskId],
      );
      expect(rows[0]).toEqual({ from: '2026-10-31', to: '2026-10-31' });
    } finally {
      await pool.query(`update users set timezone = $2 where email = $1`, ['lima@example.com', LIMA]);
    }
  });
});

describe("the organisation's market zone is an administrator's setting (Operaciones)", () => {
  const call = (who: string, method: 'GET' | 'PATCH', payload?: object) =>
    ctx.app.inject({
      method,
      url: '/v1/operations/settings',
      headers: { authorization: `JWT ${tokens[who]}` },
      payload,
    });
  const admin = async (who: string, yes: boolean) => {
    const { rows } = await ctx.db.pool.query<{ org_id: number }>(
      `update users set is_admin = $2 where email = $1 returning org_id`,
      [`${who}@example.com`, yes],
    );
    return rows[0].org_id;
  };

  it('a member who is not an administrator can neither read nor change it (403)', async () => {
    await admin('santiago', false);
    expect((await call('santiago', 'GET')).statusCode).toBe(403);
    const res = await call('santiago', 'PATCH', { market_zone: LIMA });
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toMatch(/solo para administradores/);
  });

  it('refuses a zone that is not an IANA name, naming market_zone in Spanish; and unknown fields', async () => {
    await admin('santiago', true);
    for (const market_zone of ['Marte/Olympus', 'Santiago', '', 'x'.repeat(65)]) {
      const res = await call('santiago', 'PATCH', { market_zone });
      expect(res.statusCode, market_zone).toBe(400);
      expect(res.json().field, market_zone).toBe('market_zone');
    }
    expect((await call('santiago', 'PATCH', { market_zone: 'Marte/Olympus' })).json().detail).toMatch(
      /zona horaria desconocida/,
    );
    expect((await call('santiago', 'PATCH', { market_zone: LIMA, zone: LIMA })).statusCode).toBe(400);
    expect((await call('santiago', 'GET')).json()).toEqual({ market_zone: SANTIAGO });
  });

  it("a change moves the organisation's days at once: October then holds L, as in Lima", async () => {
    const org = await admin('santiago', true);
    const res = await call('santiago', 'PATCH', { market_zone: LIMA });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ market_zone: LIMA });
    expect((await call('santiago', 'GET')).json()).toEqual({ market_zone: LIMA });
    const { rows } = await ctx.db.pool.query('select market_zone from organisations where id = $1', [org]);
    expect(rows[0].market_zone).toBe(LIMA);
    const kpi = await ctx.app.inject({
      method: 'GET',
      url: '/v2/navigation/dpm/kpi?from_date=2026-10-01&to_date=2026-10-31',
      headers: { authorization: `JWT ${tokens.santiago}` },
    });
    expect(kpi.json().total).toBe(1);
    // and back
    expect((await call('santiago', 'PATCH', { market_zone: SANTIAGO })).json()).toEqual({
      market_zone: SANTIAGO,
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.js';
import { insertClassification, insertSeller, observe, seedReferenceData } from '../../test/fixtures.js';
import { insertZoneOrgs, type ZoneOrgs, zoneTokens } from '../../test/zone-orgs.js';
import '../rollups.js';

// An image check's day is a day of the organisation's market zone (issue 25; migration 481: checks keep
// their instant, a day is cut at read time). Seller 9's listings L1, L2 (reference pictures by EAN), L3;
// each new or changed picture is a check at its run's instant:
//
//   run (UTC)            Santiago           Lima             Mexico City      pictures
//   2026-04-05 03:30Z    Apr 4 23:30 (−04)  Apr 4 22:30      Apr 4 21:30      L3 l3a
//   2026-10-31 16:00Z    Oct 31 13:00       Oct 31 11:00     Oct 31 10:00     L1 p1, L2 q1
//   2026-11-01 04:30Z    Nov 1 01:30        Oct 31 23:30     Oct 31 22:30     L1 p2
//   2026-11-01 16:00Z    Nov 1 13:00        Nov 1 11:00      Nov 1 10:00      L1 p3
//
// A day shows each listing's last check of that day (a check replaced later the same day is not shown):
//   Oct 31, Lima/Mexico: L1 p2 (p1 was replaced at 23:30/22:30 the same day), L2 q1
//   Oct 31, Santiago:    L1 p1 (its replacement came on Nov 1 at 01:30), L2 q1
//   Nov 1,  Lima/Mexico: L1 p3                       Nov 1, Santiago: L1 p3 (p2 replaced the same day)
//   Apr 4 (Santiago's day of 25 h, clocks back at 03:00Z): L3 in every zone (at −03 it would be Apr 5)

const SANTIAGO = 'America/Santiago';
const LIMA = 'America/Lima';
const MEXICO = 'America/Mexico_City';
const EAN = { L1: '7801111000011', L2: '7801111000028', L3: '7801111000035' };

let ctx: TestContext;
let tokens: Record<string, string> = {};

beforeAll(async () => {
  const orgs: [string, string][] = [
    ['santiago', SANTIAGO],
    ['lima', LIMA],
    ['mexico', MEXICO],
  ];
  let ids: ZoneOrgs = {};
  ctx = await createTestContext({
    seed: async (db) => {
      const pool = db.pool;
      await seedReferenceData(pool);
      await insertSeller(pool, { id: 5, name: 'Pivote' });
      await insertSeller(pool, { id: 9, name: 'Tienda' });
      const leaf = await insertClassification(pool, 'Electro');
      await pool.query(
        `insert into reference_images (ean, image_url) values ($1, 'ref1.png'), ($2, 'ref2.png'), ($3, 'ref3.png')`,
        [EAN.L1, EAN.L2, EAN.L3],
      );
      ids = await insertZoneOrgs(pool, orgs, {
        sellers: [9],
        pivots: [5],
        currencies: ['CLP'],
        modules: ['image_verification'],
      });
      const item = (id: keyof typeof EAN, picture: string) => ({
        productId: id,
        ean: EAN[id],
        name: `Producto ${id}`,
        brand: 'Marca',
        classificationId: leaf,
        normalPrice: 1000,
        imageUrl: `https://img.example.cl/${picture}.png`,
      });
      await observe(pool, 9, '2026-04-05T03:30:00Z', [item('L3', 'l3a')], 'partial');
      await observe(pool, 9, '2026-10-31T16:00:00Z', [item('L1', 'p1'), item('L2', 'q1')], 'partial');
      await observe(pool, 9, '2026-11-01T04:30:00Z', [item('L1', 'p2')], 'partial');
      await observe(pool, 9, '2026-11-01T16:00:00Z', [item('L1', 'p3')], 'partial');
    },
  });
  tokens = zoneTokens(ids, ctx.config.JWT_SECRET);
}, 120_000);
afterAll(() => ctx?.close());

/** The checks of a day for `who`: [listing, picture, comparison date], and the KPIs' total. */
async function checksOf(who: string, day: string) {
  const get = async (path: string) => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/v1/image-verification/${path}?comparisonDate=${day}&sellersIds=9`,
      headers: { authorization: `JWT ${tokens[who]}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const items = await get('items');
  const kpis = await get('kpis');
  expect(kpis.total).toBe(items.total);
  return (items.items as { sku: string | null; name: string; imageUrl: string; comparisonDate: string }[])
    .map((i) => [i.name, i.imageUrl.replace(/^.*\/(\w+)\.png$/, '$1'), i.comparisonDate])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
}

describe("image checks' days in the organisation's market zone", () => {
  it('23:30 of Oct 31 in Lima and Mexico City: the day shows the picture changed then', async () => {
    for (const who of ['lima', 'mexico']) {
      expect([who, await checksOf(who, '2026-10-31')]).toEqual([
        who,
        [
          ['Producto L1', 'p2', '2026-10-31'],
          ['Producto L2', 'q1', '2026-10-31'],
        ],
      ]);
      expect([who, await checksOf(who, '2026-11-01')]).toEqual([who, [['Producto L1', 'p3', '2026-11-01']]]);
    }
    expect(await checksOf('santiago', '2026-10-31')).toEqual([
      ['Producto L1', 'p1', '2026-10-31'],
      ['Producto L2', 'q1', '2026-10-31'],
    ]);
    expect(await checksOf('santiago', '2026-11-01')).toEqual([['Producto L1', 'p3', '2026-11-01']]);
  });

  it("Santiago's DST change: the 03:30Z check of Apr 5 is on Apr 4 in every zone", async () => {
    for (const who of ['santiago', 'lima', 'mexico']) {
      expect([who, await checksOf(who, '2026-04-04')]).toEqual([who, [['Producto L3', 'l3a', '2026-04-04']]]);
      expect([who, await checksOf(who, '2026-04-05')]).toEqual([who, []]);
    }
  });

  it("a check's detail gives its day in the reader's zone", async () => {
    const { rows } = await ctx.db.pool.query<{ id: string }>(
      `select c.id::text from image_checks c join products p on p.id = c.product_id
        where p.product_id = 'L1' and c.image_url like '%/p2.png'`,
    );
    const day = async (who: string) => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/v1/image-verification/check?id=${rows[0].id}`,
        headers: { authorization: `JWT ${tokens[who]}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().comparisonDate;
    };
    expect(await day('lima')).toBe('2026-10-31');
    expect(await day('santiago')).toBe('2026-11-01');
  });
});

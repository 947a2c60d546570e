import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { withTransaction } from '../../db/database.js';
import { MIGRATIONS_DIR } from '../../db/migrate.js';
import { createTestDatabase } from '../../test/context.js';
import { insertClassification, insertSeller, observe, seedReferenceData } from '../../test/fixtures.js';
import type { Observation } from '../ingest/index.js';
import { checkPromotions } from './check.js';
import './rollup.js';

// The promotions roll-up over a hand-written history of one seller (Santiago is UTC−3 in November;
// runs at 12:00Z are 09:00 in Santiago, same day). Days: 02 03 04 (no run on 05) 06 07.
//   A: SALE 02–03, NORMAL 04, SALE again 06–07 (still running)     → two promotions: 02–03 and 06–open
//   B: EXCLUSIVE 02, then SALE 03–04                              → a type change: 02–02 and 03–04
//   C: SALE at the 03 morning run, NORMAL at the 03 evening run   → no promotion (the day's last state)
//   D: SALE 02–03, unpublished 04, back on SALE 06                → 02–03 and 06–open
//   E: BYQUANTITY 04, unchanged through the day without a run 05 and 06, NORMAL 07 → 04–06
//   F: SALE 03 morning, NORMAL 03 noon, SALE 03 evening           → one promotion from 03, still running
let db: Database;
let leaf: number;
beforeAll(async () => {
  db = await createTestDatabase();
  await seedReferenceData(db.pool);
  await insertSeller(db.pool, { id: 5, name: 'Pivote' });
  leaf = await insertClassification(db.pool, 'Lácteos');
  const o = (productId: string, p: Partial<Observation>): Observation => ({
    productId,
    brand: 'Colun',
    classificationId: leaf,
    normalPrice: 1000,
    ...p,
  });
  const sale = { salePrice: 800 };
  await observe(db.pool, 5, '2026-11-02T12:00:00Z', [
    o('A', sale),
    o('B', { exclusivePrice: 900 }),
    o('C', {}),
    o('D', sale),
    o('E', {}),
    o('F', {}),
  ]);
  await observe(db.pool, 5, '2026-11-03T12:00:00Z', [
    o('A', sale),
    o('B', { salePrice: 850 }),
    o('C', sale),
    o('D', sale),
    o('E', {}),
    o('F', sale),
  ]);
  await observe(db.pool, 5, '2026-11-03T16:00:00Z', [o('C', {}), o('F', {})], 'partial');
  await observe(db.pool, 5, '2026-11-03T22:00:00Z', [o('F', { salePrice: 700 })], 'partial');
  await observe(db.pool, 5, '2026-11-04T12:00:00Z', [
    o('A', {}),
    o('B', { salePrice: 850 }),
    o('C', {}),
    o('E', { byquantityPrice: 900, byquantityQty: 2 }),
    o('F', { salePrice: 700 }),
  ]);
  await observe(db.pool, 5, '2026-11-06T12:00:00Z', [
    o('A', sale),
    o('B', {}),
    o('C', {}),
    o('D', sale),
    o('E', { byquantityPrice: 900, byquantityQty: 2 }),
    o('F', { salePrice: 700 }),
  ]);
  await observe(db.pool, 5, '2026-11-07T12:00:00Z', [
    o('A', sale),
    o('B', {}),
    o('C', {}),
    o('D', sale),
    o('E', {}),
    o('F', { salePrice: 700 }),
  ]);
});
afterAll(() => db?.close());

describe('promotions roll-up', () => {
  it('keeps one row per promotion, by the state at the last run of each day', async () => {
    const { rows } = await db.pool.query(
      `select p.product_id as listing, s.price_type, s.first_day::text as first_day, s.last_day::text as last_day,
              s.normal_price::float8 as normal, s.promo_price::float8 as promo
         from promo_spans s join products p on p.id = s.product_id order by 1, 3`,
    );
    expect(rows).toEqual([
      {
        listing: 'A',
        price_type: 'SALE',
        first_day: '2026-11-02',
        last_day: '2026-11-03',
        normal: 1000,
        promo: 800,
      },
      { listing: 'A', price_type: 'SALE', first_day: '2026-11-06', last_day: null, normal: 1000, promo: 800 },
      {
        listing: 'B',
        price_type: 'EXCLUSIVE',
        first_day: '2026-11-02',
        last_day: '2026-11-02',
        normal: 1000,
        promo: 900,
      },
      {
        listing: 'B',
        price_type: 'SALE',
        first_day: '2026-11-03',
        last_day: '2026-11-05',
        normal: 1000,
        promo: 850,
      },
      {
        listing: 'D',
        price_type: 'SALE',
        first_day: '2026-11-02',
        last_day: '2026-11-03',
        normal: 1000,
        promo: 800,
      },
      { listing: 'D', price_type: 'SALE', first_day: '2026-11-06', last_day: null, normal: 1000, promo: 800 },
      {
        listing: 'E',
        price_type: 'BYQUANTITY',
        first_day: '2026-11-04',
        last_day: '2026-11-06',
        normal: 1000,
        promo: 900,
      },
      // F: opened by the 03 morning run, gone at noon (deleted: not the day's state), opened again in the
      // evening with that run's prices
      { listing: 'F', price_type: 'SALE', first_day: '2026-11-03', last_day: null, normal: 1000, promo: 700 },
    ]);
  });

  it('keeps the daily counts per classification (sum over brands of the daily roll-up)', async () => {
    const { rows } = await db.pool.query(
      `select day::text as day, published, promoted, promoted_sale, promoted_exclusive, promoted_byquantity
         from promo_daily where seller_id = 5 and classification_id = $1 order by day`,
      [leaf],
    );
    expect(rows).toEqual([
      // 02: A D sale, B exclusive
      {
        day: '2026-11-02',
        published: 6,
        promoted: 3,
        promoted_sale: 2,
        promoted_exclusive: 1,
        promoted_byquantity: 0,
      },
      // 03 (last run 22:00): A B D F sale; C normal
      {
        day: '2026-11-03',
        published: 6,
        promoted: 4,
        promoted_sale: 4,
        promoted_exclusive: 0,
        promoted_byquantity: 0,
      },
      // 04: D unpublished; B F sale, E by quantity
      {
        day: '2026-11-04',
        published: 5,
        promoted: 3,
        promoted_sale: 2,
        promoted_exclusive: 0,
        promoted_byquantity: 1,
      },
      // 06: A D F sale, E by quantity
      {
        day: '2026-11-06',
        published: 6,
        promoted: 4,
        promoted_sale: 3,
        promoted_exclusive: 0,
        promoted_byquantity: 1,
      },
      // 07: A D F sale
      {
        day: '2026-11-07',
        published: 6,
        promoted: 3,
        promoted_sale: 3,
        promoted_exclusive: 0,
        promoted_byquantity: 0,
      },
    ]);
  });

  it('equals its recomputation from the price history', async () => {
    expect(await checkPromotions(db.pool)).toEqual([]);
  });

  it("migration 100's backfill rebuilds the same rows from the history", async () => {
    const sql = readFileSync(`${MIGRATIONS_DIR}/100_promotions.sql`, 'utf8');
    const backfill = sql.slice(sql.indexOf('-- Backfill'));
    const before = (await db.pool.query('select count(*)::int as n from promo_spans')).rows[0].n;
    await withTransaction(db.pool, async (client) => {
      await client.query('delete from promo_spans; delete from promo_daily');
      await client.query(backfill);
      // migration 101 knows no CLP sums: its last statement rebuilds them with promo_rebuild_cumulative
      const rebuild = readFileSync(`${MIGRATIONS_DIR}/430_promotion_prices_at_their_day.sql`, 'utf8');
      await client.query(rebuild.slice(rebuild.lastIndexOf('select promo_rebuild_cumulative')));
    });
    expect((await db.pool.query('select count(*)::int as n from promo_spans')).rows[0].n).toBe(before);
    expect(await checkPromotions(db.pool)).toEqual([]);
  });

  it('keeps the cumulative figures of every node, type and duration (worked by hand)', async () => {
    // ended promotions by duration, cumulative by last day: B exclusive 02–02 (1 day); A, D sale 02–03
    // (2 days); B sale 03–05 and E by quantity 04–06 (3 days)
    const { rows } = await db.pool.query(
      `select duration, day::text as day, ended, e_promo::float8 as promo from promo_duration_cum
        where seller_id = 5 and classification_id = $1 order by 1, 2`,
      [leaf],
    );
    expect(rows).toEqual([
      { duration: 1, day: '2026-11-02', ended: 1, promo: 900 },
      { duration: 2, day: '2026-11-03', ended: 2, promo: 1600 },
      { duration: 3, day: '2026-11-05', ended: 1, promo: 850 },
      { duration: 3, day: '2026-11-06', ended: 2, promo: 1750 },
    ]);
    // SALE: started A 02, D 02, B 03, F 03, A 06, D 06 (6); ended A 03, D 03, B 05
    const sale = await db.pool.query(
      `select day::text as day, started, ended from promo_type_cum
        where seller_id = 5 and classification_id = $1 and price_type = 'SALE' order by day`,
      [leaf],
    );
    const at = (d: string) => sale.rows.filter((r) => r.day <= d).at(-1) ?? { started: 0, ended: 0 };
    expect(at('2026-11-02')).toMatchObject({ started: 2, ended: 0 });
    expect(at('2026-11-03')).toMatchObject({ started: 4, ended: 2 });
    expect(at('2026-11-05')).toMatchObject({ started: 4, ended: 3 });
    expect(at('2026-11-07')).toMatchObject({ started: 6, ended: 3 });
    // window 04–07: started by 07 (6) − ended by 03 (2) = A 06, D 06, B 03–05, F 03 = 4
    expect(at('2026-11-07').started - at('2026-11-03').ended).toBe(4);
  });

  it("migration 101's backfill and migration 430's rebuild (CLP sums) give the same cumulative rows", async () => {
    const sql = readFileSync(`${MIGRATIONS_DIR}/101_promotions_cumulative.sql`, 'utf8');
    const backfill = sql.slice(sql.indexOf('-- Backfill'));
    const count = async () =>
      (
        await db.pool.query(
          'select (select count(*) from promo_type_cum) + (select count(*) from promo_duration_cum) as n',
        )
      ).rows[0].n;
    const before = await count();
    await withTransaction(db.pool, async (client) => {
      await client.query(
        'delete from promo_type_cum; delete from promo_duration_cum; delete from promo_cum_currencies; delete from promo_duration_keys; delete from promo_weekly',
      );
      await client.query(backfill);
      // migration 101 knows no CLP sums: its last statement rebuilds them with promo_rebuild_cumulative
      const rebuild = readFileSync(`${MIGRATIONS_DIR}/430_promotion_prices_at_their_day.sql`, 'utf8');
      await client.query(rebuild.slice(rebuild.lastIndexOf('select promo_rebuild_cumulative')));
    });
    expect(await count()).toBe(before);
    expect(await checkPromotions(db.pool)).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { createTestDatabase } from '../../test/context.js';
import { insertClassification, insertSeller, observe, seedReferenceData } from '../../test/fixtures.js';
import { checkDailyRollups } from './rollups-check.js';

// Hand-computed daily roll-up of one seller over two days (Santiago is UTC−3 in November).
let db: Database;
let leaf: number;
beforeAll(async () => {
  db = await createTestDatabase();
  await seedReferenceData(db.pool);
  await insertSeller(db.pool, { id: 5, name: 'Pivote' });
  leaf = await insertClassification(db.pool, 'Lácteos');
  const o = (productId: string) => ({ productId, brand: 'Colun', classificationId: leaf });
  // Day 1, 2026-11-02
  await observe(db.pool, 5, '2026-11-02T12:00:00Z', [
    { ...o('A'), normalPrice: 1000 },
    { ...o('B'), normalPrice: 2000, salePrice: 1500 },
    { ...o('C'), normalPrice: 500, stockOut: true },
    { ...o('E'), normalPrice: 100 },
  ]);
  // Day 2, 2026-11-03: A card price and out of stock, B back to normal, C by quantity and back in stock,
  // D new on sale, E gone.
  await observe(db.pool, 5, '2026-11-03T12:00:00Z', [
    { ...o('A'), normalPrice: 1000, exclusivePrice: 800, stockOut: true },
    { ...o('B'), normalPrice: 2000 },
    { ...o('C'), normalPrice: 500, byquantityPrice: 400, byquantityQty: 2 },
    { ...o('D'), normalPrice: 3000, salePrice: 2400 },
  ]);
  // A later partial run the same day: B on sale again. The day's row describes the last run.
  await observe(
    db.pool,
    5,
    '2026-11-03T20:00:00Z',
    [{ ...o('B'), normalPrice: 2000, salePrice: 1800 }],
    'partial',
  );
});
afterAll(() => db?.close());

const row = async (day: string) => {
  const { rows } = await db.pool.query(
    `select published, in_stock, promoted, promoted_sale, promoted_exclusive, promoted_byquantity, priced,
            effective_price_sum, effective_price_avg, normal_priced, normal_price_sum, normal_price_avg,
            discounted, discount_pct_sum, new_listings, unpublished, went_out_of_stock, back_in_stock, currency
       from rollup_daily where seller_id = 5 and day = $1 and classification_id = $2`,
    [day, leaf],
  );
  expect(rows).toHaveLength(1);
  return rows[0];
};

describe('daily roll-up (rollup_daily_brand / rollup_daily)', () => {
  it('day 1: the state after the run and the listings first seen', async () => {
    expect(await row('2026-11-02')).toEqual({
      published: 4, // A B C E
      in_stock: 3, // C is out of stock
      promoted: 1,
      promoted_sale: 1, // B
      promoted_exclusive: 0,
      promoted_byquantity: 0,
      priced: 4,
      effective_price_sum: 3100, // 1000 + 1500 + 500 + 100
      effective_price_avg: 775,
      normal_priced: 4,
      normal_price_sum: 3600,
      normal_price_avg: 900,
      discounted: 1,
      discount_pct_sum: 25, // B: (2000 − 1500) / 2000
      new_listings: 4,
      unpublished: 0,
      went_out_of_stock: 0, // C was never in stock before
      back_in_stock: 0,
      currency: 'CLP',
    });
  });

  it('day 2: last run of the day, promotions per type, events of the day', async () => {
    expect(await row('2026-11-03')).toEqual({
      published: 4, // A B C D (E unpublished)
      in_stock: 3, // A out
      promoted: 4,
      promoted_sale: 2, // B (partial run), D
      promoted_exclusive: 1, // A
      promoted_byquantity: 1, // C
      priced: 4,
      effective_price_sum: 5500, // 800 + 1800 + 500 + 2400 (the by-quantity price is not an effective price)
      effective_price_avg: 1375,
      normal_priced: 4,
      normal_price_sum: 6500,
      normal_price_avg: 1625,
      discounted: 4,
      discount_pct_sum: 70, // A 20 + B 10 + C 20 + D 20
      new_listings: 1, // D
      unpublished: 1, // E
      went_out_of_stock: 1, // A
      back_in_stock: 1, // C
      currency: 'CLP',
    });
  });

  it('equals a recomputation from the price intervals', async () => {
    expect(await checkDailyRollups(db.pool)).toEqual([]);
  });
});

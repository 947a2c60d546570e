import { addDays, DEFAULT_TIMEZONE, isoDateInZone } from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { createTestDatabase } from '../../test/context.js';
import { insertClassification, insertSeller, observe, seedReferenceData } from '../../test/fixtures.js';
import '../rollups.js'; // every roll-up, 'dashboard-eod' among them
import { ensureEod } from './eod.js';

// The end of a comparison day is materialised by the seller's first run after it. When the seller's
// previous run was on that day (nothing changed since it ended) it is read from the snapshot before
// the run's changes; it must be exactly what the price history says.
let db: Database;
const D = addDays(isoDateInZone(new Date(), DEFAULT_TIMEZONE), -7); // a comparison day (7-day period)
const at = (day: string) => `${day}T15:00:00Z`; // 12:00 in Santiago
beforeAll(async () => {
  db = await createTestDatabase();
  await seedReferenceData(db.pool);
  await insertSeller(db.pool, { id: 5, name: 'Pivote' });
  const leaf = await insertClassification(db.pool, 'Lácteos');
  const o = (productId: string, normalPrice: number, more: object = {}) => ({
    productId,
    brand: 'Colun',
    classificationId: leaf,
    normalPrice,
    ...more,
  });
  await observe(db.pool, 5, at(addDays(D, -1)), [o('A', 1000), o('B', 500), o('E', 300)]);
  // Day D: A on sale, B out of stock, E gone.
  await observe(db.pool, 5, at(D), [o('A', 1000, { salePrice: 900 }), o('B', 500, { stockOut: true })]);
  // Day D + 1 (its run builds the end of D): A cheaper, B gone, C new.
  await observe(db.pool, 5, at(addDays(D, 1)), [o('A', 800), o('C', 700)]);
});
afterAll(() => db?.close());

const eodRows = async () =>
  (
    await db.pool.query(
      `select p.product_id, e.normal_price, e.promo_price, e.effective_price, e.price_type, e.stock_out, e.currency
         from listing_eod e join products p on p.id = e.product_id
        where e.seller_id = 5 and e.day = $1 order by 1`,
      [D],
    )
  ).rows;

describe('end-of-day states built at ingest', () => {
  it('the first run after the day holds the state at its end', async () => {
    expect(await eodRows()).toEqual([
      {
        product_id: 'A',
        normal_price: 1000,
        promo_price: 900,
        effective_price: 900,
        price_type: 'SALE',
        stock_out: false,
        currency: 'CLP',
      },
      {
        product_id: 'B',
        normal_price: 500,
        promo_price: null,
        effective_price: 500,
        price_type: 'NORMAL',
        stock_out: true,
        currency: 'CLP',
      },
    ]);
  });

  it('equals a build from the price history', async () => {
    const atIngest = await eodRows();
    await db.pool.query('delete from listing_eod_days where seller_id = 5 and day = $1', [D]);
    expect(await eodRows()).toEqual([]);
    await ensureEod(db.pool, [5], D);
    expect(await eodRows()).toEqual(atIngest);
    const { rows } = await db.pool.query(
      'select listings from listing_eod_days where seller_id = 5 and day = $1',
      [D],
    );
    expect(rows[0].listings).toBe(2);
  });
});

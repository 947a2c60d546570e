import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { createTestDatabase } from '../../test/context.js';
import { insertClassification, insertSeller, observe, seedReferenceData } from '../../test/fixtures.js';
import { checkDailyRollups } from '../../test/rollups-check.js';
import { clearIngestCaches, type Observation } from './ingest.js';

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

// The roll-up is maintained by difference (each run adds what its touched listings changed), so every
// kind of change must leave it equal to the independent recomputation: a seeded random history of one
// seller with several runs a day (full and partial, one just before midnight in Santiago), days without
// runs, listings appearing, disappearing and coming back, moving between brands and classifications,
// changing currency, stock and promotion type; and runs after the process forgot the seller's state.
describe('daily roll-up maintained by difference', () => {
  it('a listing unpublished and back the same day, now out of stock, went out of stock that day', async () => {
    await insertSeller(db.pool, { id: 8, name: 'Vuelve sin stock' });
    const x = (stockOut: boolean) => [
      { productId: 'X', brand: 'Colun', classificationId: leaf, normalPrice: 700, stockOut },
    ];
    await observe(db.pool, 8, '2026-11-04T12:00:00Z', x(false)); // in stock since the day before
    await observe(db.pool, 8, '2026-11-05T12:00:00Z', []); // 09:00: gone
    await observe(db.pool, 8, '2026-11-05T15:00:00Z', x(true)); // 12:00: back, out of stock
    const { rows } = await db.pool.query(
      `select published, in_stock, new_listings, unpublished, went_out_of_stock, back_in_stock
         from rollup_daily where seller_id = 8 and day = '2026-11-05'`,
    );
    // at the day's start X was in stock (its interval ran until 09:00); at the day's end it is published
    // and out of stock
    expect(rows).toEqual([
      { published: 1, in_stock: 0, new_listings: 0, unpublished: 0, went_out_of_stock: 1, back_in_stock: 0 },
    ]);
    expect(await checkDailyRollups(db.pool, 8, '2026-11-05')).toEqual([]);
  });

  it('equals the recomputation of its day after every run of a random history', async () => {
    await insertSeller(db.pool, { id: 7, name: 'Aleatorio' });
    const leaves = [leaf, await insertClassification(db.pool, 'Quesos'), null];
    const brands = ['Colun', 'Soprole', 'Nestlé', null];
    let seed = 20261123;
    const rnd = () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed / 4294967296;
    };
    const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
    interface Item {
      id: string;
      shown: boolean;
      brand: string | null;
      classificationId: number | null;
      normal: number;
      kind: 'NORMAL' | 'SALE' | 'EXCLUSIVE' | 'BYQUANTITY';
      stockOut: boolean;
      currency: string;
    }
    const items: Item[] = Array.from({ length: 40 }, (_, i) => ({
      id: `R${i}`,
      shown: i < 25,
      brand: pick(brands),
      classificationId: pick(leaves),
      normal: 1000 + Math.floor(rnd() * 50) * 10,
      kind: 'NORMAL',
      stockOut: false,
      currency: 'CLP',
    }));
    const obsOf = (it: Item): Observation => ({
      productId: it.id,
      brand: it.brand,
      classificationId: it.classificationId,
      normalPrice: it.normal,
      salePrice: it.kind === 'SALE' ? Math.round(it.normal * 0.83) : null,
      exclusivePrice: it.kind === 'EXCLUSIVE' ? Math.round(it.normal * 0.71) : null,
      byquantityPrice: it.kind === 'BYQUANTITY' ? Math.round(it.normal * 0.9) : null,
      byquantityQty: it.kind === 'BYQUANTITY' ? 3 : null,
      stockOut: it.stockOut,
      currency: it.currency,
    });
    const mutate = () => {
      for (const it of items) {
        const r = rnd();
        if (r < 0.06) it.shown = !it.shown;
        else if (r < 0.1) it.brand = pick(brands);
        else if (r < 0.13) it.classificationId = pick(leaves);
        else if (r < 0.15) it.currency = it.currency === 'CLP' ? 'USD' : 'CLP';
        else if (r < 0.3) it.stockOut = !it.stockOut;
        else if (r < 0.5) it.kind = pick(['NORMAL', 'SALE', 'EXCLUSIVE', 'BYQUANTITY'] as const);
        else if (r < 0.6) it.normal += 10 * Math.floor(rnd() * 20 - 10);
      }
    };
    let runs = 0;
    for (let d = 1; d <= 14; d++) {
      if (d === 6 || d === 10) continue; // days without any run
      const day = `2026-11-${String(d).padStart(2, '0')}`;
      // 12:00Z, 15:00Z and 22:00Z are 09:00, 12:00 and 19:00 in Santiago; 02:30Z the next day is 23:30.
      const times = [`${day}T12:00:00Z`];
      if (rnd() < 0.6) times.push(`${day}T15:00:00Z`);
      if (rnd() < 0.4) times.push(`${day}T22:00:00Z`);
      if (rnd() < 0.3) times.push(new Date(Date.parse(`${day}T02:30:00Z`) + 86_400_000).toISOString());
      for (const at of times) {
        mutate();
        if (rnd() < 0.25) clearIngestCaches();
        const partial = runs > 0 && rnd() < 0.3;
        const shown = items.filter((it) => it.shown && (!partial || rnd() < 0.5));
        await observe(db.pool, 7, at, shown.map(obsOf), partial ? 'partial' : 'full');
        runs++;
        const santiagoDay = new Date(Date.parse(at) - 3 * 3_600_000).toISOString().slice(0, 10);
        expect({ at, mismatches: await checkDailyRollups(db.pool, 7, santiagoDay) }).toEqual({
          at,
          mismatches: [],
        });
      }
    }
    expect(runs).toBeGreaterThan(20);
    const { rows } = await db.pool.query(
      'select count(distinct day)::int as days, sum(unpublished)::int as gone, sum(back_in_stock)::int as back from rollup_daily_brand where seller_id = 7',
    );
    // the history exercised what it is meant to: 12 days with rows, unpublished listings, stock events
    expect(rows[0].days).toBe(12);
    expect(rows[0].gone).toBeGreaterThan(0);
    expect(rows[0].back).toBeGreaterThan(0);
  });
});

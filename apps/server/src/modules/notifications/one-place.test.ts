import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { createTestDatabase } from '../../test/context.js';
import {
  insertClassification,
  insertOrgWithLicense,
  insertSeller,
  observe,
  seedReferenceData,
} from '../../test/fixtures.js';

// A seller with two listings of one product takes one place in the ranking the rules store, as on the
// screens (and in the dispatch's re-check). Hand-worked: on day 02 the product is at 1000 at the pivot (5),
// 900 and 950 at Hogar Total (116, two listings) and 1100 at Hogar Norte (125). On day 03 Hogar Norte drops
// to 850: before, below 1100 are 1000 (pivot) and 900 (116's lowest) → 3rd (counting 116's two listings
// would make it 4th); after, 850 is below all → 1st.

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
  await seedReferenceData(db.pool);
  await insertSeller(db.pool, { id: 5, name: 'Mercado Central' });
  await insertSeller(db.pool, { id: 125, name: 'Hogar Norte' });
  await insertSeller(db.pool, { id: 116, name: 'Hogar Total' });
  const leaf = await insertClassification(db.pool, 'Hogar');
  await insertOrgWithLicense(db.pool, {
    sellers: [5, 125, 116],
    pivots: [5],
    currencies: ['CLP'],
    modules: ['dpm', 'promotions', 'assortment', 'reports'],
  });
  const item = (id: string, normalPrice: number) => ({
    productId: id,
    ean: '7800000000017',
    name: 'Producto uno',
    brand: 'Marca Uno',
    classificationId: leaf,
    normalPrice,
  });
  const day = (d: string) => `2026-11-${d}T12:00:00Z`;
  for (const d of ['02', '03']) {
    await observe(db.pool, 5, day(d), [item('P-1', 1000)]);
    await observe(db.pool, 116, day(d), [item('T-1', 900), item('T-2', 950)]);
  }
  await observe(db.pool, 125, day('02'), [item('N-1', 1100)]);
  await observe(db.pool, 125, day('03'), [item('N-1', 850)]);
});
afterAll(async () => {
  await db?.close();
});

it('a seller with two listings in the match group counts once in the stored positions', async () => {
  const { rows } = await db.pool.query<{ kind: string; facts: { rankBefore: number; rankAfter: number } }>(
    `select kind, facts from change_events where seller_id = 125 and namespace = 'prices'`,
  );
  expect(rows).toHaveLength(1);
  expect(rows[0].kind).toBe('cheapest_gained');
  expect(rows[0].facts.rankBefore).toBe(3);
  expect(rows[0].facts.rankAfter).toBe(1);
});

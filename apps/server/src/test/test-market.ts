import { addDays, isoDateInZone } from '@vigia/domain';
import type pg from 'pg';
import type { Database } from '../db/database.js';
import {
  insertClassification,
  insertFxRate,
  insertOrgWithLicense,
  insertSeller,
  observe,
  seedReferenceData,
} from './fixtures.js';

// A small hand-made market for the detail, product list and dashboard API tests. Days are relative to
// today in America/Santiago (T), observations at 16:00 UTC (midday in Santiago) of each day; the last
// runs happen "now" (one minute ago). Every expected number in the tests is worked out from this.
//
//   group E1 (EAN 7800000000001)         T−10          T−5              T−4     T−3     T−2          now
//   P1 @10 Pivote (CLP)   cls audio      1000                 sale 900                                (same)
//   A1 @20 Rival A (CLP)                 950                                    1100                  (same)
//   B1 @30 Rival B (PEN, 250 CLP)        4 PEN = 1000 CLP                               stock out
//   C1 @50 Rival C (CLP)                 1200                            (same)
//   F1 @40 Fuera (CLP, not licensed)     500
//   P2 @10 no name, no EAN, cls moda     2000                                                           (same)
//   P3 @10 'Audífono Pro' EAN E3         3000 (alone in its group)                                       (same)
//   D1 @20 'Cable' EAN E9, cls audio     500                                    unpublished (A's full run)
//   E1 listings are classified under audio (Electro › Audio).
//   USD = 900 CLP.

export const tDay = (n: number, now = new Date()) => addDays(isoDateInZone(now, 'America/Santiago'), -n);
const at = (n: number) => `${tDay(n)}T16:00:00Z`;

export interface TestMarket {
  ids: Record<'P1' | 'P2' | 'P3' | 'A1' | 'B1' | 'C1' | 'D1' | 'F1', number>;
  cls: { audio: number; moda: number };
  users: {
    /** org with sellers 20, 30, 50, pivot 10, currencies CLP and USD, classification root audio */
    main: { id: number; org_id: number; token_version: number };
    /** org with seller 20 only, pivot 10, CLP, whole tree */
    narrow: { id: number; org_id: number; token_version: number };
  };
}

async function insertUser(pool: pg.Pool, orgId: number, email: string, pivot: number) {
  const { rows } = await pool.query<{ id: number; org_id: number; token_version: number }>(
    `insert into users (org_id, email, name, password_hash, currency, pivot_id)
     values ($1, $2, 'Prueba', 'x', 'CLP', $3) returning id, org_id, token_version`,
    [orgId, email, pivot],
  );
  return rows[0];
}

export async function seedTestMarket(db: Database): Promise<TestMarket> {
  const pool = db.pool;
  await seedReferenceData(pool);
  await insertFxRate(pool, 'USD', '2020-01-01', 900);
  await insertFxRate(pool, 'PEN', '2020-01-01', 250);
  await insertSeller(pool, { id: 10, name: 'Pivote', color: '#111111' });
  await insertSeller(pool, { id: 20, name: 'Rival A', color: '#222222' });
  await insertSeller(pool, { id: 30, name: 'Rival B', country: 'PE', currency: 'PEN', color: '#333333' });
  await insertSeller(pool, { id: 40, name: 'Fuera', color: '#444444' });
  await insertSeller(pool, { id: 50, name: 'Rival C', color: '#555555' });
  const electro = await insertClassification(pool, 'Electro');
  const audio = await insertClassification(pool, 'Audio', electro);
  const moda = await insertClassification(pool, 'Moda');

  const E1 = {
    ean: '7800000000001',
    name: 'Audífono X',
    brand: 'Acme',
    categoryPath: ['Tecnología', 'Audio'],
    classificationId: audio,
  };
  const p1 = { ...E1, productId: 'P1', sku: 'SKU-P1', classificationId: audio, url: 'https://pivote.cl/p1' };
  const p2 = { productId: 'P2', name: null, classificationId: moda, normalPrice: 2000 };
  const p3 = {
    productId: 'P3',
    name: 'Audífono Pro',
    ean: '7800000000003',
    classificationId: audio,
    normalPrice: 3000,
  };
  const a1 = { ...E1, productId: 'A1', url: 'https://a.cl/a1' };
  const b1 = { ...E1, productId: 'B1' };
  const c1 = { ...E1, productId: 'C1' };
  const d1 = {
    productId: 'D1',
    name: 'Cable',
    ean: '7800000000009',
    classificationId: audio,
    normalPrice: 500,
  };

  await observe(pool, 10, at(10), [{ ...p1, normalPrice: 1000 }, p2, p3]);
  await observe(pool, 20, at(10), [{ ...a1, normalPrice: 950 }, d1]);
  await observe(pool, 30, at(10), [{ ...b1, normalPrice: 4 }]);
  await observe(pool, 40, at(10), [{ ...E1, productId: 'F1', normalPrice: 500 }]);
  await observe(pool, 50, at(10), [{ ...c1, normalPrice: 1200 }]);
  await observe(pool, 10, at(5), [{ ...p1, normalPrice: 1000, salePrice: 900 }, p2, p3]);
  await observe(pool, 50, at(4), [{ ...c1, normalPrice: 1200 }]);
  await observe(pool, 20, at(3), [{ ...a1, normalPrice: 1100 }]);
  await observe(pool, 30, at(2), [{ ...b1, normalPrice: 4, stockOut: true }]);
  const now = new Date(Date.now() - 60_000);
  await observe(pool, 10, now, [{ ...p1, normalPrice: 1000, salePrice: 900 }, p2, p3]);
  await observe(pool, 20, now, [{ ...a1, normalPrice: 1100 }]);

  const { rows } = await pool.query<{ id: number; product_id: string }>(
    'select id, product_id from products',
  );
  const ids = Object.fromEntries(rows.map((r) => [r.product_id, r.id])) as TestMarket['ids'];

  const main = await insertOrgWithLicense(pool, {
    orgName: 'Principal',
    sellers: [20, 30, 50],
    pivots: [10],
    currencies: ['CLP', 'USD'],
    modules: [],
    classifications: [electro],
  });
  const narrow = await insertOrgWithLicense(pool, {
    orgName: 'Acotada',
    sellers: [20],
    pivots: [10],
    currencies: ['CLP'],
    modules: [],
  });
  return {
    ids,
    cls: { audio, moda },
    users: {
      main: await insertUser(pool, main.orgId, 'main@example.com', 10),
      narrow: await insertUser(pool, narrow.orgId, 'narrow@example.com', 10),
    },
  };
}

import type pg from 'pg';
import type { Observation } from '../modules/ingest/index.js';
import {
  insertClassification,
  insertOrgWithLicense,
  insertSeller,
  observe,
  seedReferenceData,
} from './fixtures.js';

// A hand-built market for the notification rules (modules/notifications): pivot 5 and competitors 125
// and 116, every item matched by EAN. Days (runs at 12:00Z = 09:00 in Santiago):
//   02: first runs (no events: everything is new)
//   03: 125 — A drops 1100 → 900 (normal price; now the cheapest, was 3rd)
//           — B reads ×100 (200 000, an extraction error)
//           — C out of stock; D on SALE 800 (normal 1000, −20 %); E normal 1000 → 950
//       125 partial runs: C back in stock at 15:00Z and out again at 18:00Z (flapping)
//   04: 125 — B back to 2000; D back to normal; E back to 1000 (a temporary dip); F first seen (new listing)
//   06: 125 — nothing changes (A's new normal price has been held 3 days: a permanent repricing)
// Expected change events (docs/metrics.md "Notifications"), all of seller 125:
//   03: cheapest_gained A (−18,2 %, 3.º → 1.º); promotion_start [D] (20 %); stock_out [C]
//       suppressed: suspicious 1 (B), flapping 2 (C back, C out)
//   04: promotion_end [D]; new_listing [F]; suppressed temporary 1 (E)
//   06: repricing A (1100 → 900, held 3 days)

export const NOTIF_SELLERS = { pivot: 5, norte: 125, sur: 116, outside: 300 } as const;

const item = (ean: string, p: Partial<Observation>): Observation => ({
  productId: `P-${ean}`,
  ean: `780000000${ean}`,
  name: `Producto ${ean}`,
  brand: 'Marca Uno',
  normalPrice: 1000,
  ...p,
});

export interface NotificationsFixture {
  orgId: number;
  leaf: number;
}

export async function seedNotificationsMarket(pool: pg.Pool): Promise<NotificationsFixture> {
  await seedReferenceData(pool);
  await insertSeller(pool, { id: NOTIF_SELLERS.pivot, name: 'Mercado Central' });
  await insertSeller(pool, { id: NOTIF_SELLERS.norte, name: 'Hogar Norte' });
  await insertSeller(pool, { id: NOTIF_SELLERS.sur, name: 'Hogar Total' });
  await insertSeller(pool, { id: NOTIF_SELLERS.outside, name: 'Fuera' });
  const leaf = await insertClassification(pool, 'Hogar');
  const { orgId } = await insertOrgWithLicense(pool, {
    sellers: [5, 125, 116],
    pivots: [5],
    currencies: ['CLP'],
    modules: ['dpm', 'promotions', 'assortment', 'reports', 'image_verification'],
  });
  const o = (ean: string, p: Partial<Observation> = {}) => item(ean, { classificationId: leaf, ...p });
  const pivotDay = [o('01'), o('02'), o('03'), o('04'), o('05'), o('06')];
  const sur = [o('01', { normalPrice: 1050 }), o('02'), o('03'), o('04'), o('05')];
  const day = (d: string) => `2026-11-${d}T12:00:00Z`;

  await observe(pool, 5, day('02'), pivotDay);
  await observe(pool, 116, day('02'), sur);
  await observe(pool, 125, day('02'), [
    o('01', { normalPrice: 1100 }),
    o('02', { normalPrice: 2000 }),
    o('03'),
    o('04'),
    o('05'),
  ]);

  await observe(pool, 5, day('03'), pivotDay);
  await observe(pool, 116, day('03'), sur);
  await observe(pool, 125, day('03'), [
    o('01', { normalPrice: 900 }),
    o('02', { normalPrice: 200_000 }),
    o('03', { stockOut: true }),
    o('04', { salePrice: 800 }),
    o('05', { normalPrice: 950 }),
  ]);
  await observe(pool, 125, '2026-11-03T15:00:00Z', [o('03')], 'partial');
  await observe(pool, 125, '2026-11-03T18:00:00Z', [o('03', { stockOut: true })], 'partial');

  await observe(pool, 5, day('04'), pivotDay);
  await observe(pool, 116, day('04'), sur);
  const day4 = [
    o('01', { normalPrice: 900 }),
    o('02', { normalPrice: 2000 }),
    o('03', { stockOut: true }),
    o('04'),
    o('05'),
    o('06', { normalPrice: 1200 }),
  ];
  await observe(pool, 125, day('04'), day4);
  await observe(pool, 125, day('06'), day4);
  return { orgId, leaf };
}

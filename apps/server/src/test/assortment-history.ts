import { addDays, isoDateInZone } from '@vigia/domain';
import type pg from 'pg';
import type { Observation } from '../modules/ingest/index.js';
import { insertClassification, insertFxRate, insertSeller, observe, seedReferenceData } from './fixtures.js';

// A generated price history for the assortment read model's tests (modules/assortment/rollup.test.ts):
// three sellers (two in CLP, one in PEN), 36 listings each, 14 days ending yesterday (America/Santiago),
// with a fixed pseudo-random sequence of what happens to each listing on each run: price changes, sales,
// card prices, stock out and back, unpublishing (a full run without it) and re-publishing, renames and
// brand changes, a day without runs, and extra partial runs on some days (one of them flips a listing
// and a later one flips it back). Prices repeat on purpose (ties in every sort, also after conversion).

export interface AssortmentHistory {
  sellers: number[];
  days: string[];
  classes: { root: number; a: number; b: number; c: number };
}

/** mulberry32: a small deterministic generator. */
export function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ListingState {
  obs: Observation;
  published: boolean;
}

export async function seedAssortmentHistory(
  pool: pg.Pool,
  runsAfter?: () => Promise<void>,
): Promise<AssortmentHistory> {
  await seedReferenceData(pool);
  const last = addDays(isoDateInZone(new Date(), 'America/Santiago'), -1);
  const days = Array.from({ length: 14 }, (_, i) => addDays(last, i - 13));
  await insertFxRate(pool, 'PEN', addDays(days[0], -30), 250);
  await insertFxRate(pool, 'USD', addDays(days[0], -30), 900);
  const sellers = [5, 7, 9];
  await insertSeller(pool, { id: 5, name: 'Pivote', color: '#6a1b9a' });
  await insertSeller(pool, { id: 7, name: 'Rival A', color: '#1565c0' });
  await insertSeller(pool, { id: 9, name: 'rival Perú', country: 'PE', currency: 'PEN', color: '#ef6c00' });
  const root = await insertClassification(pool, 'Hogar');
  const a = await insertClassification(pool, 'Cocina', root);
  const b = await insertClassification(pool, 'Baño', root);
  const c = await insertClassification(pool, 'Jardín');
  const brands = ['Acme', 'Bosch', 'acme', null, 'Zeta'];
  const names = ['Olla', 'olla', 'Sartén', null, 'Ducha', 'Árbol', 'Zapallo'];
  const rnd = random(14);
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  const state = new Map<number, ListingState[]>();
  for (const seller of sellers) {
    const pen = seller === 9;
    state.set(
      seller,
      Array.from({ length: 36 }, (_, i) => ({
        published: true,
        obs: {
          productId: `L${i}`,
          name: `${pick(names) ?? ''} ${i % 5}`.trim() || null,
          brand: pick(brands),
          classificationId: pick([a, b, c]),
          normalPrice: pen ? pick([4, 4.5, 10, 12]) : pick([1000, 1000, 1500, 990, 2500]),
          stockOut: rnd() < 0.2,
        },
      })),
    );
  }
  const at = (day: string, hour: number) => `${day}T${String(hour).padStart(2, '0')}:00:00Z`;
  for (const [d, day] of days.entries()) {
    if (d === 6) continue; // no run at all that day: the state carries over
    for (const seller of sellers) {
      const list = state.get(seller) as ListingState[];
      const pen = seller === 9;
      for (const l of list) {
        const r = rnd();
        const o = l.obs;
        if (r < 0.12) l.obs = { ...o, stockOut: !o.stockOut };
        else if (r < 0.22)
          l.obs = { ...o, normalPrice: pen ? pick([4, 5, 11]) : pick([1000, 1200, 990, 3000]) };
        else if (r < 0.3) l.obs = { ...o, salePrice: o.salePrice ? null : (o.normalPrice ?? 0) * 0.8 };
        else if (r < 0.34)
          l.obs = { ...o, exclusivePrice: o.exclusivePrice ? null : (o.normalPrice ?? 0) * 0.7 };
        else if (r < 0.4) l.published = !l.published;
        else if (r < 0.42) l.obs = { ...o, name: `${pick(names) ?? 'x'} ${d}` };
        else if (r < 0.44) l.obs = { ...o, brand: pick(brands), classificationId: pick([a, b, c]) };
        else if (r < 0.46) l.obs = { ...o, normalPrice: null, salePrice: null, exclusivePrice: null };
        else if (r < 0.48 && o.normalPrice === null) l.obs = { ...o, normalPrice: pen ? 6 : 1100 };
      }
      await observe(
        pool,
        seller,
        at(day, 14),
        list.filter((l) => l.published).map((l) => l.obs),
      );
      if (d % 3 === 1) {
        // partial runs later that day: two listings flip stock, one flips back at the evening run
        const flip = list.filter((l) => l.published).slice(d % 5, (d % 5) + 2);
        await observe(
          pool,
          seller,
          at(day, 17),
          flip.map((l) => ({ ...l.obs, stockOut: !l.obs.stockOut })),
          'partial',
        );
        await observe(pool, seller, at(day, 20), [flip[0].obs], 'partial');
      }
    }
    await runsAfter?.();
  }
  return { sellers, days, classes: { root, a, b, c } };
}

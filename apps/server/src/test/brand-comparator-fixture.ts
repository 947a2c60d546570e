import type pg from 'pg';
import type { Observation } from '../modules/ingest/ingest.js';
import { insertFxRate, insertSeller, observe, seedReferenceData } from './fixtures.js';

// A small pseudo-random market for the brand comparator's trend: a pivot (5) and three competitors (7, 8
// and 9 in PEN), 12 products of three brands matched by EAN (seller 7 lists two of them twice), observed
// once or twice a day for `days` days and a few minutes ago: prices (normal, sale, exclusive) move,
// listings go out of stock and back, and competitors' listings drop out of a run (unpublished) and return.

export const TREND_PIVOT = 5;
export const TREND_COMPETITORS = [7, 8, 9];
const BRANDS = ['Colun', 'Soprole', 'Omo'];

/** Deterministic pseudo-random numbers in [0, 1). */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export async function seedTrendMarket(pool: pg.Pool, days = 14, seed = 7): Promise<void> {
  const rnd = random(seed);
  await seedReferenceData(pool);
  await insertSeller(pool, { id: 5, name: 'Pivote' });
  await insertSeller(pool, { id: 7, name: 'Rival A' });
  await insertSeller(pool, { id: 8, name: 'Rival B' });
  await insertSeller(pool, { id: 9, name: 'Rival Perú', country: 'PE', currency: 'PEN' });
  const start = Date.now() - days * 86_400_000;
  await insertFxRate(pool, 'PEN', new Date(start - 86_400_000).toISOString().slice(0, 10), 260);

  // listings per seller: [productId, ean, brand, base price]
  const listings = new Map<number, { id: string; ean: string; brand: string; base: number }[]>();
  for (const seller of [5, ...TREND_COMPETITORS]) {
    const own: { id: string; ean: string; brand: string; base: number }[] = [];
    for (let e = 1; e <= 12; e++) {
      if (seller !== 5 && rnd() < 0.25) continue; // not every product is sold everywhere
      const base = seller === 9 ? 2 + Math.round(rnd() * 10) : 500 + Math.round(rnd() * 2000);
      own.push({ id: `s${seller}-${e}`, ean: `E${e}`, brand: BRANDS[e % 3], base });
      if (seller === 7 && e % 5 === 0)
        own.push({ id: `s7-${e}-bis`, ean: `E${e}`, brand: BRANDS[e % 3], base });
    }
    listings.set(seller, own);
  }
  const state = new Map<string, Observation>();
  const run = async (seller: number, at: Date) => {
    const obs: Observation[] = [];
    for (const l of listings.get(seller) ?? []) {
      if (seller !== 5 && rnd() < 0.1) continue; // unpublished at this run
      let o = state.get(l.id);
      if (!o || rnd() < 0.35) {
        const normalPrice = Math.round(l.base * (0.8 + rnd() * 0.4) * 100) / 100;
        o = {
          productId: l.id,
          ean: l.ean,
          name: `Producto ${l.ean}`,
          brand: l.brand,
          normalPrice,
          salePrice: rnd() < 0.3 ? Math.round(normalPrice * 90) / 100 : null,
          exclusivePrice: rnd() < 0.15 ? Math.round(normalPrice * 85) / 100 : null,
          stockOut: rnd() < 0.2,
        };
        state.set(l.id, o);
      }
      obs.push(o);
    }
    await observe(pool, seller, at, obs, 'full');
  };
  for (let d = 0; d < days; d++) {
    for (const seller of [5, ...TREND_COMPETITORS]) {
      await run(seller, new Date(start + d * 86_400_000 + seller * 60_000));
      if (rnd() < 0.3) await run(seller, new Date(start + d * 86_400_000 + 3 * 3_600_000 + seller * 60_000));
    }
  }
  for (const seller of [5, ...TREND_COMPETITORS])
    await run(seller, new Date(Date.now() - 5 * 60_000 + seller));
}

import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Database } from '../../db/database.js';
import { createTestDatabase } from '../../test/context.js';
import { observe } from '../../test/fixtures.js';
import { type PricingFixture, seedPricingFixture } from '../../test/pricing-fixture.js';
import { getPivotModel, type PivotModel } from './model.js';
import { decodeModel, encodeModel, readSavedModel } from './snapshot.js';

// The saved pricing model (snapshot.ts, migration 501): what a starting process reads instead of every
// row and offer, then the change log since its version.

let db: Database;
let fx: PricingFixture;
const PIVOT = 5;
const pools: pg.Pool[] = [];

/** A process of its own: a pool whose read-model holder holds no model yet. */
function process(): pg.Pool {
  const pool = createPool(db.url, 3);
  pools.push(pool);
  return pool;
}

async function saved(): Promise<{ version: number } | undefined> {
  const { rows } = await db.pool.query<{ version: number }>(
    'select version::int from pricing_model_snapshots where pivot_id = $1',
    [PIVOT],
  );
  return rows[0];
}

/** Waits for the model saved behind a load (at least `version`). */
async function savedAt(version: number) {
  for (let i = 0; i < 200; i++) {
    const s = await saved();
    if (s && s.version >= version) return s;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no model saved at version ${version}`);
}

/** What a model holds, plainly: its rows and every column (the offers' mode prices as read). */
function plain(m: PivotModel) {
  const c = m.cols;
  const cols = Object.fromEntries(
    Object.entries(c)
      .filter(([k]) => k !== 'offerPrice' && k !== 'rowPrice' && k !== 'sellerIndex')
      .map(([k, v]) => [k, ArrayBuffer.isView(v) ? Array.from(v as Float64Array) : v]),
  );
  const modes = ['NORMAL_SALE_EXCLUSIVE_PRICE', 'NORMAL_SALE_PRICE', 'NORMAL_PRICE'] as const;
  return {
    version: m.version,
    rows: m.rows,
    cols,
    rowPrice: modes.map((k) => Array.from(c.rowPrice[k])),
    offerPrice: modes.map((k) => Array.from(c.offerPrice[k])),
  };
}

beforeAll(async () => {
  db = await createTestDatabase();
  fx = await seedPricingFixture(db.pool);
});

afterAll(async () => {
  for (const p of pools) await p.end();
  await db?.close();
});

describe('the saved pricing model', () => {
  it('encodes and decodes to the same rows and offers, and refuses bytes that are not one', async () => {
    const m = await getPivotModel(process(), PIVOT);
    expect(m.rows.length).toBeGreaterThan(3);
    const bytes = encodeModel(m);
    const back = decodeModel(bytes, PIVOT);
    expect(back?.version).toBe(m.version);
    expect(back?.rows.map((r) => r[0])).toEqual(m.rows.map((r) => r.productId));
    expect(back?.rows.map((r) => [r[5], r[9], r[11], r[16]])).toEqual(
      m.rows.map((r) => [r.name, `{${r.classPath.join(',')}}`, r.normal, r.currency]),
    );
    expect(Array.from(back?.offers.offerNormal ?? [])).toEqual(Array.from(m.cols.offerNormal));
    expect(Array.from(back?.offers.offerStart ?? [])).toEqual(Array.from(m.cols.offerStart));
    expect(back?.offers.sellerIds).toEqual(m.cols.sellerIds);
    // another pivot's, cut short, or not a saved model at all
    expect(decodeModel(bytes, 7)).toBeNull();
    expect(decodeModel(bytes.subarray(0, bytes.length - 8), PIVOT)).toBeNull();
    expect(decodeModel(Buffer.from('{"pivot":5}'), PIVOT)).toBeNull();
  });

  it('a full load saves the model; a new process starts from it, then reads the change log since', async () => {
    const first = await getPivotModel(process(), PIVOT);
    await savedAt(first.version);

    // what a start reads is the saved model: a change written behind the log's back (never done by the
    // product: here only to tell the two sources apart) is not seen by a process that starts from it
    const p1 = fx.listings.p1;
    await db.pool.query(`update pricing_rows set name = 'escrito a escondidas' where product_id = $1`, [p1]);
    const fromSaved = await getPivotModel(process(), PIVOT);
    // read in slices (1 MiB in the product; here 100 bytes: the fixture's model is small) as in one piece
    const sliced = await readSavedModel(db.pool, PIVOT, 100);
    const whole = await readSavedModel(db.pool, PIVOT, 1 << 30);
    expect(whole?.rows.length).toBeGreaterThan(3);
    expect(sliced?.rows).toEqual(whole?.rows);
    expect(Array.from(sliced?.offers.offerNormal ?? [])).toEqual(Array.from(first.cols.offerNormal));
    expect(fromSaved.rows.find((r) => r.productId === p1)?.name).not.toBe('escrito a escondidas');
    expect(plain(fromSaved)).toEqual(plain(first));
    await db.pool.query('update pricing_rows set name = $2 where product_id = $1', [
      p1,
      first.rows.find((r) => r.productId === p1)?.name,
    ]);

    // Rival A lowers the pivot's P1 match to 900: a new version, logged
    await observe(db.pool, 7, new Date(), [{ productId: 'a1', ean: 'E1', normalPrice: 900 }], 'partial');
    const started = await getPivotModel(process(), PIVOT);
    expect(started.version).toBeGreaterThan(first.version);
    // equal to a load of every row and offer from the tables (no saved model)
    await db.pool.query('delete from pricing_model_snapshots');
    const full = await getPivotModel(process(), PIVOT);
    expect(plain(started)).toEqual(plain(full));
    const i = started.rows.findIndex((r) => r.productId === p1);
    const offers = Array.from(
      started.cols.offerNormal.subarray(started.cols.offerStart[i], started.cols.offerStart[i + 1]),
    );
    expect(offers).toContain(900);
    // and that full load saved the model again
    await savedAt(full.version);
  });

  it('a rebuilt read model does not read the model saved for the one before', async () => {
    const m = await getPivotModel(process(), PIVOT);
    await savedAt(m.version);
    // a rebuild starts the versions again (a new built_at); the saved model no longer matches it
    await db.pool.query(
      "update pricing_pivots set built_at = built_at + interval '1 second' where seller_id = $1",
      [PIVOT],
    );
    await db.pool.query(`update pricing_rows set name = 'tras reconstruir' where product_id = $1`, [
      fx.listings.p1,
    ]);
    const after = await getPivotModel(process(), PIVOT);
    expect(after.rows.find((r) => r.productId === fx.listings.p1)?.name).toBe('tras reconstruir');
  });
});

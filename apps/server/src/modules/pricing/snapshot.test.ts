import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPool, type Database } from '../../db/database.js';
import { createTestDatabase } from '../../test/context.js';
import { observe } from '../../test/fixtures.js';
import { type PricingFixture, seedPricingFixture } from '../../test/pricing-fixture.js';
import {
  buildColumns,
  getPivotModel,
  newShared,
  type PivotModel,
  type Row,
  savedToModel,
  savedToModelInSteps,
} from './model.js';
import { decodeModel, encodeModel, readSavedModel, type SavedModel } from './snapshot.js';

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
    expect(back?.rows.n).toBe(m.rows.length);
    // the model made from it is the model saved: every row field and column
    expect(plain(savedToModel(back as SavedModel))).toEqual(plain(m));
    expect(Array.from(back?.offers.offerNormal ?? [])).toEqual(Array.from(m.cols.offerNormal));
    expect(Array.from(back?.offers.offerStart ?? [])).toEqual(Array.from(m.cols.offerStart));
    expect(back?.offers.sellerIds).toEqual(m.cols.sellerIds);
    // made in steps (a warm-up's, giving way between them): the same model, `between` after each step
    let between = 0;
    const stepped = await savedToModelInSteps(
      back as SavedModel,
      async () => {
        between++;
      },
      2,
    );
    expect(plain(stepped)).toEqual(plain(m));
    expect(between).toBe(Math.floor(m.rows.length / 2));
    // another pivot's, cut short, or not a saved model at all
    expect(decodeModel(bytes, 7)).toBeNull();
    expect(decodeModel(bytes.subarray(0, bytes.length - 8), PIVOT)).toBeNull();
    expect(decodeModel(Buffer.from('{"pivot":5}'), PIVOT)).toBeNull();
  });

  it('keeps every row as it was: nulls, empty texts, accents, characters outside the BMP, shared values', () => {
    const base: Row = {
      productId: 1,
      groupId: null,
      ref: 'R-1',
      sku: null,
      ean: null,
      name: '',
      brandId: null,
      brandName: null,
      classificationId: null,
      classPath: [],
      categoryPath: [],
      normal: null,
      sale: null,
      exclusive: null,
      priceType: 'NORMAL',
      stockOut: false,
      currency: 'CLP',
      published: false,
      firstSeen: 1_700_000_000_000,
      lastSeen: 1_700_000_000_000,
    };
    const rows: Row[] = [
      base,
      {
        ...base,
        productId: 2,
        groupId: 40,
        ref: 'ñandú-2',
        sku: '',
        ean: '7800000000017',
        name: 'Café «Ñuñoa» 1½ kg 🍫 — edición',
        brandId: 9,
        brandName: 'Marca Ñ',
        classificationId: 12,
        classPath: [3, 12],
        categoryPath: [7],
        normal: 1990,
        sale: 1490.5,
        exclusive: 0,
        priceType: 'SALE',
        stockOut: true,
        currency: 'USD',
        published: true,
        lastSeen: 1_700_086_400_000,
      },
      {
        ...base,
        productId: 3,
        sku: 'S3',
        ean: '0',
        name: '🍫',
        brandId: 9,
        brandName: 'Marca Ñ',
        classPath: [3, 12],
      },
    ];
    const entries = rows.map((row) => ({ row, offers: [] }));
    const m: PivotModel = {
      pivot: PIVOT,
      version: 4,
      rows,
      cols: buildColumns(entries),
      shared: newShared(),
    };
    const back = decodeModel(encodeModel(m), PIVOT);
    const made = savedToModel(back as SavedModel);
    expect(made.rows).toEqual(rows);
    expect(plain(made)).toEqual(plain(m));
    // repeated values are one string or array per model
    expect(made.rows[2].classPath).toBe(made.rows[1].classPath);
    expect(Object.isFrozen(made.rows[1].classPath)).toBe(true);
    // a saved value whose text ends run backwards is not read (row 1's SKU ending before its reference)
    const bad = encodeModel(m);
    const at = bad.indexOf(Buffer.from(new Int32Array([3, 3, 3, 3, 10, 10, 23]).buffer));
    expect(at).toBeGreaterThan(0);
    expect(decodeModel(bad, PIVOT)).not.toBeNull();
    bad.writeInt32LE(1, at + 5 * 4);
    expect(decodeModel(bad, PIVOT)).toBeNull();
  });

  it('a full load saves the model; a new process starts from it, then reads the change log since', async () => {
    const first = await getPivotModel(process(), PIVOT);
    await savedAt(first.version);

    // what a start reads is the saved model: a change written behind the log's back (never done by the
    // product: here only to tell the two sources apart) is not seen by a process that starts from it
    const p1 = fx.listings.p1;
    await db.pool.query(`update pricing_rows set name = 'escrito a escondidas' where product_id = $1`, [p1]);
    const fromSaved = await getPivotModel(process(), PIVOT);
    // read in slices (64 KiB in the product; here 100 bytes: the fixture's model is small) as in one piece
    const sliced = await readSavedModel(db.pool, PIVOT, 100);
    const whole = await readSavedModel(db.pool, PIVOT, 1 << 30);
    expect(whole?.rows.n).toBeGreaterThan(3);
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

  it('a model saved in an earlier layout is not read, and is saved over in this one at the same version', async () => {
    const m = await getPivotModel(process(), PIVOT);
    await savedAt(m.version);
    await db.pool.query(
      `update pricing_model_snapshots set data = overlay(data placing 'VPM1'::bytea from 1) where pivot_id = $1`,
      [PIVOT],
    );
    const layout = async () =>
      (
        await db.pool.query<{ magic: string }>(
          `select encode(substring(data from 1 for 4), 'escape') as magic from pricing_model_snapshots
            where pivot_id = $1`,
          [PIVOT],
        )
      ).rows[0].magic;
    expect(await layout()).toBe('VPM1');
    expect(await readSavedModel(db.pool, PIVOT)).toBeNull();
    // a new process loads from the tables (same version) and saves the model again, in this layout
    const again = await getPivotModel(process(), PIVOT);
    expect(again.version).toBe(m.version);
    expect(plain(again)).toEqual(plain(m));
    await vi.waitFor(async () => expect(await layout()).toBe('VPM2'), { timeout: 5000, interval: 25 });
    expect((await readSavedModel(db.pool, PIVOT))?.version).toBe(m.version);
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

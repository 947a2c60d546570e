import { readFileSync } from 'node:fs';
import { type AssortmentProductSort, addDays, DEFAULT_TIMEZONE } from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { withTransaction } from '../../db/database.js';
import { MIGRATIONS_DIR } from '../../db/migrate.js';
import { readModelsOf } from '../../platform/read-model.js';
import { type AssortmentHistory, seedAssortmentHistory } from '../../test/assortment-history.js';
import { referenceStateProducts, referenceStockEvents } from '../../test/assortment-reference.js';
import { createTestDatabase } from '../../test/context.js';
import { insertClassification, insertSeller, observe, seedReferenceData } from '../../test/fixtures.js';
import type { Observation } from '../ingest/index.js';
import { checkAssortment } from './check.js';
import { ordersBuilt, selectProductsPage } from './kept-orders.js';
import { type ProductQuery, selectProducts } from './queries.js';
import '../rollups.js';

// The assortment read model (assortment_spans, migration 111) against (1) a hand-worked history, (2) its
// recomputation from the price history after every day of a generated history (and migration 111's
// backfill), and (3) the drill-downs as they were computed from the price history before it
// (test/assortment-reference.ts): same rows, same order, same totals, on every sort, page, period,
// seller, brand and stock list.

describe('assortment spans, worked by hand', () => {
  // One seller, runs at 14:00Z (11:00 in Santiago). Days 02 03 04 (no run on 05) 06.
  //   A: 1000 in stock 02, out 03 (went out 03), out 04 and 06           → 02–02 in; 03–open out (prev in)
  //   B: 1000 02, 900 03 (03 evening run: back to 1000), 1000 04 …       → 02–open (the 03 evening run undoes it)
  //   C: out 02, unpublished 03 (full run without it), back in stock 04   → 02–02 out; 04–open in (no previous)
  //   D: 500 02, 03, 04; 700 06                                           → 02–05 500; 06–open 700
  //   E: 1000 02, 900 03 (03 evening run: 800), 800 04 and 06              → 02–02 1000; 03–open 800 (prev in:
  //      the span the morning run opened is replaced the same day by one in a third state)
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase();
    await seedReferenceData(db.pool);
    await insertSeller(db.pool, { id: 5, name: 'Pivote' });
    const leaf = await insertClassification(db.pool, 'Lácteos');
    const o = (productId: string, p: Partial<Observation>): Observation => ({
      productId,
      name: productId,
      brand: 'Colun',
      classificationId: leaf,
      normalPrice: 1000,
      ...p,
    });
    await observe(db.pool, 5, '2026-11-02T14:00:00Z', [
      o('A', {}),
      o('B', {}),
      o('C', { stockOut: true }),
      o('D', { normalPrice: 500 }),
      o('E', {}),
    ]);
    await observe(db.pool, 5, '2026-11-03T14:00:00Z', [
      o('A', { stockOut: true }),
      o('B', { normalPrice: 900 }),
      o('D', { normalPrice: 500 }),
      o('E', { normalPrice: 900 }),
    ]);
    await observe(db.pool, 5, '2026-11-03T22:00:00Z', [o('B', {}), o('E', { normalPrice: 800 })], 'partial');
    await observe(db.pool, 5, '2026-11-04T14:00:00Z', [
      o('A', { stockOut: true }),
      o('B', {}),
      o('C', {}),
      o('D', { normalPrice: 500 }),
      o('E', { normalPrice: 800 }),
    ]);
    await observe(db.pool, 5, '2026-11-06T14:00:00Z', [
      o('A', { stockOut: true }),
      o('B', {}),
      o('C', {}),
      o('D', { normalPrice: 700 }),
      o('E', { normalPrice: 800 }),
    ]);
  });
  afterAll(() => db?.close());

  it('keeps one row per run of days in the same state', async () => {
    const { rows } = await db.pool.query(
      `select p.product_id as listing, a.first_day::text as first, a.last_day::text as last,
              a.effective_price::float8 as price, a.stock_out as out, a.prev_stock_out as prev
         from assortment_spans a join products p on p.id = a.product_id order by 1, 2`,
    );
    expect(rows).toEqual([
      { listing: 'A', first: '2026-11-02', last: '2026-11-02', price: 1000, out: false, prev: null },
      { listing: 'A', first: '2026-11-03', last: 'infinity', price: 1000, out: true, prev: false },
      { listing: 'B', first: '2026-11-02', last: 'infinity', price: 1000, out: false, prev: null },
      { listing: 'C', first: '2026-11-02', last: '2026-11-02', price: 1000, out: true, prev: null },
      { listing: 'C', first: '2026-11-04', last: 'infinity', price: 1000, out: false, prev: null },
      { listing: 'D', first: '2026-11-02', last: '2026-11-05', price: 500, out: false, prev: null },
      { listing: 'D', first: '2026-11-06', last: 'infinity', price: 700, out: false, prev: false },
      { listing: 'E', first: '2026-11-02', last: '2026-11-02', price: 1000, out: false, prev: null },
      { listing: 'E', first: '2026-11-03', last: 'infinity', price: 800, out: false, prev: false },
    ]);
    // A went out of stock on the 03 run: out since the day its in-stock interval ended
    const a = await db.pool.query(
      `select a.out_day from assortment_spans a join products p on p.id = a.product_id
        where p.product_id = 'A' and a.stock_out`,
    );
    expect(a.rows[0].out_day).toBe('2026-11-03');
    expect(await checkAssortment(db.pool)).toEqual([]);
  });
});

describe('assortment spans over a generated history', () => {
  let db: Database;
  let h: AssortmentHistory;
  const mismatchesByDay: number[] = [];
  beforeAll(async () => {
    db = await createTestDatabase();
    h = await seedAssortmentHistory(db.pool, async () => {
      mismatchesByDay.push((await checkAssortment(db.pool)).length);
    });
  }, 120_000);
  afterAll(() => db?.close());

  it('equals its recomputation from the price history after every day', async () => {
    expect(mismatchesByDay.length).toBe(13);
    expect(mismatchesByDay.every((n) => n === 0)).toBe(true);
    expect(await checkAssortment(db.pool)).toEqual([]);
    const { rows } = await db.pool.query(
      `select count(*)::int as spans, count(*) filter (where stock_out <> prev_stock_out)::int as events,
              count(distinct product_id)::int as listings from assortment_spans`,
    );
    // the history has every kind of span: several per listing, availability events
    expect(rows[0].spans).toBeGreaterThan(2 * rows[0].listings);
    expect(rows[0].events).toBeGreaterThan(20);
  });

  it("migrations 111 and 112's backfills rebuild the same rows from the history", async () => {
    const backfill = (file: string) => {
      const sql = readFileSync(`${MIGRATIONS_DIR}/${file}`, 'utf8');
      return sql.slice(sql.indexOf('-- Backfill'));
    };
    const count = async () =>
      (
        await db.pool.query(
          'select (select count(*) from assortment_spans) as spans, (select count(*) from assortment_events_cum) as cum',
        )
      ).rows[0];
    const before = await count();
    expect(Number(before.cum)).toBeGreaterThan(0);
    await withTransaction(db.pool, async (client) => {
      await client.query('delete from assortment_spans; delete from assortment_events_cum');
      await client.query(backfill('111_assortment_spans.sql'));
      await client.query(backfill('112_assortment_events_cum.sql'));
    });
    expect(await count()).toEqual(before);
    expect(await checkAssortment(db.pool)).toEqual([]);
  });

  it('gives the drill-downs the answers they had from the price history', async () => {
    const brandIds = (
      await db.pool.query<{ id: number }>("select id from brands where name = 'Acme'")
    ).rows.map((r) => r.id);
    const rates = {
      CLP: new Map([
        ['CLP', 1],
        ['PEN', 250],
      ]),
      USD: new Map([
        ['CLP', 1 / 900],
        ['PEN', 250 / 900],
      ]),
    };
    const sorts: AssortmentProductSort[] = ['name', 'price', 'seller', 'brand', 'date'];
    const last = h.days.at(-1) as string;
    const ends = [last, h.days[9], h.days[6], h.days[2]];
    let compared = 0;
    let nonEmpty = 0;
    for (const [i, to] of ends.entries()) {
      for (const sellers of [h.sellers, [7], [9]]) {
        for (const [j, sort] of sorts.entries()) {
          for (const dir of ['asc', 'desc'] as const) {
            for (const offset of [0, 6, 30]) {
              const variant = (i + j + offset) % 4;
              const q: ProductQuery = {
                selection: {
                  zone: DEFAULT_TIMEZONE,
                  sellers,
                  roots: variant === 1 ? [h.classes.root] : [],
                  classificationsIds: variant === 2 ? [h.classes.a] : undefined,
                  ownBrands: variant === 3 ? brandIds : undefined,
                },
                to,
                from: addDays(to, -5),
                rates: offset === 6 ? rates.USD : rates.CLP,
                sort,
                dir,
                limit: 6,
                offset,
              };
              const cases: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
                [
                  'state',
                  () => selectProducts(db.pool, { ...q, kind: 'state' }),
                  () => referenceStateProducts(db.pool, q),
                ],
                [
                  'brand',
                  () => selectProducts(db.pool, { ...q, kind: 'state', brandIds }),
                  () => referenceStateProducts(db.pool, { ...q, brandIds }),
                ],
                [
                  'no brand',
                  () => selectProducts(db.pool, { ...q, kind: 'state', brandIds: [null] }),
                  () => referenceStateProducts(db.pool, { ...q, brandIds: [null] }),
                ],
                [
                  'out',
                  () => selectProducts(db.pool, { ...q, kind: 'out' }),
                  () => referenceStateProducts(db.pool, { ...q, outOnly: true }),
                ],
                [
                  'went_out',
                  () => selectProducts(db.pool, { ...q, kind: 'went_out' }),
                  () => referenceStockEvents(db.pool, { ...q, event: 'went_out' }),
                ],
                [
                  'back_in',
                  () => selectProducts(db.pool, { ...q, kind: 'back_in' }),
                  () => referenceStockEvents(db.pool, { ...q, event: 'back_in' }),
                ],
              ];
              for (const [name, fast, reference] of cases) {
                const want = await reference();
                const got = await fast();
                expect({ name, q, rows: got }).toEqual({ name, q, rows: want });
                compared++;
                if ((want as unknown[]).length) nonEmpty++;
              }
            }
          }
        }
      }
    }
    expect(compared).toBe(4 * 3 * 5 * 2 * 3 * 6);
    expect(nonEmpty).toBeGreaterThan(compared / 2);
  }, 120_000);

  it("gives a brand list's pages by name and price from its kept order as they were sorted whole", async () => {
    const acme = (await db.pool.query<{ id: number }>("select id from brands where name = 'Acme'")).rows.map(
      (r) => r.id,
    );
    const rates = new Map([
      ['CLP', 1],
      ['PEN', 250],
    ]);
    const orders = readModelsOf(db.pool).memo('assortment-list-orders', 64);
    const last = h.days.at(-1) as string;
    let compared = 0;
    let nonEmpty = 0;
    for (const to of [last, h.days[6]]) {
      for (const sellers of [h.sellers, [7]]) {
        for (const [brands, brandIds] of [
          [undefined, acme],
          [undefined, [null]],
          [acme, undefined],
        ] as const) {
          for (const [variant, sort] of (['name', 'price', 'name', 'price'] as const).entries()) {
            // each list and sort asked six times: its first two asks sort the list (the second keeps its
            // order beside), the others read the kept order — every answer the reference's
            for (const dir of ['asc', 'desc'] as const) {
              for (const offset of [0, 3, 7]) {
                const q: ProductQuery = {
                  selection: {
                    zone: DEFAULT_TIMEZONE,
                    sellers,
                    roots: variant === 2 ? [h.classes.root] : [],
                    classificationsIds: variant === 3 ? [h.classes.a] : undefined,
                    ownBrands: brands && [...brands],
                  },
                  brandIds: brandIds && [...brandIds],
                  to,
                  from: addDays(to, -5),
                  rates,
                  sort,
                  dir,
                  limit: 6,
                  offset,
                };
                const want = await referenceStateProducts(db.pool, q);
                expect({ q, rows: await selectProductsPage(db.pool, { ...q, kind: 'state' }) }).toEqual({
                  q,
                  rows: want,
                });
                await ordersBuilt();
                compared++;
                if (want.length) nonEmpty++;
              }
            }
          }
        }
      }
    }
    expect(compared).toBe(2 * 2 * 3 * 4 * 2 * 3);
    expect(nonEmpty).toBeGreaterThan(compared / 2);
    // one kept order per list and sort (the variants with a restriction are lists of their own)
    expect(orders.size).toBe(2 * 2 * 3 * 4);
  });
});

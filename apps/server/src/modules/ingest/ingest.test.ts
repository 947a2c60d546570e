import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Database } from '../../db/database.js';
import { createTestDatabase } from '../../test/context.js';
import { insertClassification, insertSeller, observe, seedReferenceData } from '../../test/fixtures.js';
import { derivePriceType, effectivePrice, ingestObservations, type Observation } from './ingest.js';

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
  await seedReferenceData(db.pool);
  await insertSeller(db.pool, { id: 5, name: 'Pivote' });
  await insertSeller(db.pool, { id: 7, name: 'Rival' });
});
afterAll(() => db?.close());

const base = {
  ean: '7800000000011',
  name: 'Leche 1L',
  brand: 'Colun',
  categoryPath: ['Despensa', 'Lácteos'],
};

describe('effective price and price type', () => {
  it('takes the lowest of normal, sale and exclusive present', () => {
    expect(effectivePrice({ normalPrice: 1000, salePrice: 900, exclusivePrice: 850 })).toBe(850);
    expect(effectivePrice({ normalPrice: 1000, salePrice: null })).toBe(1000);
    expect(effectivePrice({ normalPrice: null, salePrice: null })).toBeNull();
  });
  it('derives the type from the lowest price when not given', () => {
    expect(derivePriceType({ productId: 'a', normalPrice: 1000, salePrice: 900 })).toBe('SALE');
    expect(derivePriceType({ productId: 'a', normalPrice: 1000, salePrice: 900, exclusivePrice: 800 })).toBe(
      'EXCLUSIVE',
    );
    expect(derivePriceType({ productId: 'a', normalPrice: 1000, byquantityPrice: 700 })).toBe('BYQUANTITY');
    expect(derivePriceType({ productId: 'a', normalPrice: 1000 })).toBe('NORMAL');
  });
});

describe('ingestObservations', () => {
  it('stores history as intervals: a new row only when something changes', async () => {
    const leaf = await insertClassification(db.pool, 'Lácteos');
    const o = { ...base, productId: 'P1', classificationId: leaf };
    await observe(db.pool, 5, '2026-11-01T12:00:00Z', [{ ...o, normalPrice: 1000 }]);
    await observe(db.pool, 5, '2026-11-02T12:00:00Z', [{ ...o, normalPrice: 1000 }]); // unchanged
    const r3 = await observe(db.pool, 5, '2026-11-03T12:00:00Z', [
      { ...o, normalPrice: 1000, salePrice: 890 },
    ]);
    expect(r3.changes).toBe(1);
    const r4 = await observe(db.pool, 5, '2026-11-04T12:00:00Z', [
      { ...o, normalPrice: 1000, salePrice: 890 },
    ]);
    expect(r4.changes).toBe(0);

    const { rows } = await db.pool.query(
      `select to_char(valid_from at time zone 'UTC', 'MM-DD') f, to_char(valid_to at time zone 'UTC', 'MM-DD') t,
              normal_price, sale_price, price_type
         from price_intervals pi join products p on p.id = pi.product_id
        where p.product_id = 'P1' order by valid_from`,
    );
    expect(rows).toEqual([
      { f: '11-01', t: '11-03', normal_price: 1000, sale_price: null, price_type: 'NORMAL' },
      { f: '11-03', t: null, normal_price: 1000, sale_price: 890, price_type: 'SALE' },
    ]);
    const { rows: cur } = await db.pool.query(
      `select lc.effective_price, lc.previous_effective_price, lc.price_type, lc.classification_id, p.first_seen
         from listing_current lc join products p on p.id = lc.product_id where p.product_id = 'P1'`,
    );
    expect(cur[0]).toMatchObject({
      effective_price: 890,
      previous_effective_price: 1000,
      price_type: 'SALE',
      classification_id: leaf,
    });
    const { rows: runs } = await db.pool.query(
      `select count(*)::int n from ingest_runs where status = 'succeeded' and seller_id = 5`,
    );
    expect(runs[0].n).toBe(4);
  });

  it('puts listings of different sellers with the same EAN into one confirmed match group', async () => {
    await observe(db.pool, 7, '2026-11-04T13:00:00Z', [{ ...base, productId: 'R-9', normalPrice: 950 }]);
    const { rows } = await db.pool.query(
      `select p.seller_id, lc.group_id, mm.method, mm.status from listing_current lc
         join products p on p.id = lc.product_id join match_members mm on mm.product_id = p.id
        where p.ean = $1 order by p.seller_id`,
      [base.ean],
    );
    expect(rows).toHaveLength(2);
    expect(rows[0].group_id).toBe(rows[1].group_id);
    expect(rows.map((r) => r.status)).toEqual(['confirmed', 'confirmed']);
  });

  it('unpublishes listings missing from a full run and closes their interval', async () => {
    await observe(db.pool, 7, '2026-11-05T13:00:00Z', [
      { productId: 'R-10', name: 'Otro', normalPrice: 500 },
    ]);
    const { rows } = await db.pool.query(
      `select published, to_char(unpublished_at at time zone 'UTC', 'MM-DD') u,
              (select count(*)::int from price_intervals where product_id = p.id and valid_to is null) open
         from products p where seller_id = 7 and product_id = 'R-9'`,
    );
    expect(rows[0]).toEqual({ published: false, u: '11-05', open: 0 });
  });

  it('records a failed run and writes nothing of it', async () => {
    const before = await db.pool.query('select count(*)::int n from products');
    await expect(
      observe(db.pool, 7, '2026-11-06T13:00:00Z', [
        { productId: 'ok', normalPrice: 100 },
        { productId: 'bad', normalPrice: -1 },
      ]),
    ).rejects.toThrow(/fuera de rango/);
    const after = await db.pool.query('select count(*)::int n from products');
    expect(after.rows[0].n).toBe(before.rows[0].n);
    const { rows } = await db.pool.query(`select status, error from ingest_runs order by id desc limit 1`);
    expect(rows[0].status).toBe('failed');
    expect(rows[0].error).toMatch(/normalPrice fuera de rango/);
  });

  it('refuses a currency it does not know, as a failed run that writes nothing', async () => {
    const before = await db.pool.query('select count(*)::int n from price_intervals');
    await expect(
      observe(db.pool, 7, '2026-11-06T14:00:00Z', [
        { productId: 'R-10', name: 'Otro', normalPrice: 500 },
        { productId: 'R-11', name: 'Nuevo', normalPrice: 12, currency: 'XYZ' },
      ]),
    ).rejects.toThrow('moneda desconocida: XYZ');
    const after = await db.pool.query('select count(*)::int n from price_intervals');
    expect(after.rows[0].n).toBe(before.rows[0].n);
    // a known one (in lower case, as a feed may send it) is stored upper-case
    await observe(db.pool, 7, '2026-11-06T15:00:00Z', [
      { productId: 'R-10', name: 'Otro', normalPrice: 500 },
      { productId: 'R-11', name: 'Nuevo', normalPrice: 12, currency: 'usd' },
    ]);
    const { rows } = await db.pool.query(
      `select pi.currency from price_intervals pi join products p on p.id = pi.product_id
        where p.seller_id = 7 and p.product_id = 'R-11'`,
    );
    expect(rows).toEqual([{ currency: 'USD' }]);
  });

  it('re-publishes a listing that comes back within the same process (no second listing)', async () => {
    await insertSeller(db.pool, { id: 11, name: 'Vuelve' });
    const run = (at: string, ids: string[]) =>
      observe(
        db.pool,
        11,
        at,
        ids.map((id) => ({ productId: id, name: `Ítem ${id}`, normalPrice: 100 })),
      );
    expect(await run('2026-11-01T12:00:00Z', ['A', 'B'])).toMatchObject({ newListings: 2 });
    expect(await run('2026-11-02T12:00:00Z', ['A'])).toMatchObject({ unpublished: 1, changes: 0 });
    expect(await run('2026-11-03T12:00:00Z', ['A', 'B'])).toMatchObject({
      newListings: 0,
      changes: 1,
      unpublished: 0,
    });
    const { rows } = await db.pool.query(
      `select p.product_id, p.published, count(pi.*)::int as intervals
         from products p join price_intervals pi on pi.product_id = p.id
        where p.seller_id = 11 group by 1, 2 order by 1`,
    );
    expect(rows).toEqual([
      { product_id: 'A', published: true, intervals: 1 },
      { product_id: 'B', published: true, intervals: 2 },
    ]);
  });

  it('keeps the last observation of a product id that a batch repeats (new and known listings)', async () => {
    await insertSeller(db.pool, { id: 13, name: 'Repite' });
    const first = await observe(db.pool, 13, '2026-11-01T12:00:00Z', [
      { productId: 'N', name: 'Nuevo', normalPrice: 100 },
      { productId: 'N', name: 'Nuevo', normalPrice: 90 },
      { productId: 'K', name: 'Conocido', normalPrice: 50 },
    ]);
    expect(first).toMatchObject({ observations: 2, newListings: 2 });
    // K is known to this process now: repeated, its last observation wins too
    const second = await observe(db.pool, 13, '2026-11-02T12:00:00Z', [
      { productId: 'K', name: 'Conocido', normalPrice: 45 },
      { productId: 'N', name: 'Nuevo', normalPrice: 90 },
      { productId: 'K', name: 'Conocido', normalPrice: 40 },
    ]);
    expect(second).toMatchObject({ observations: 2, changes: 1, unpublished: 0 });
    const { rows } = await db.pool.query(
      `select p.product_id, lc.normal_price from products p join listing_current lc on lc.product_id = p.id
        where p.seller_id = 13 order by 1`,
    );
    expect(rows).toEqual([
      { product_id: 'K', normal_price: 40 },
      { product_id: 'N', normal_price: 90 },
    ]);
  });

  it('a second run at the same instant rewrites the interval that run opened', async () => {
    await insertSeller(db.pool, { id: 14, name: 'Mismo instante' });
    const at = (d: string, price: number) =>
      observe(db.pool, 14, d, [{ productId: 'S', name: 'Igual', normalPrice: price }]);
    await at('2026-11-01T12:00:00Z', 100);
    await at('2026-11-02T12:00:00Z', 90);
    expect(await at('2026-11-02T12:00:00Z', 80)).toMatchObject({ changes: 1 });
    const { rows } = await db.pool.query(
      `select to_char(valid_from at time zone 'UTC', 'DD') f, to_char(valid_to at time zone 'UTC', 'DD') t,
              normal_price from price_intervals pi join products p on p.id = pi.product_id
        where p.seller_id = 14 order by valid_from`,
    );
    expect(rows).toEqual([
      { f: '01', t: '02', normal_price: 100 },
      { f: '02', t: null, normal_price: 80 },
    ]);
  });

  it('deletes the price history and end-of-day states of a deleted listing', async () => {
    await insertSeller(db.pool, { id: 12, name: 'Borrable' });
    await observe(db.pool, 12, '2026-11-01T12:00:00Z', [{ productId: 'D', name: 'Se va', normalPrice: 10 }]);
    await observe(db.pool, 12, '2026-11-02T12:00:00Z', [{ productId: 'D', name: 'Se va', normalPrice: 9 }]);
    const { rows: p } = await db.pool.query(`select id from products where seller_id = 12`);
    await db.pool.query(
      `insert into listing_eod_days (seller_id, day, listings) values (12, '2026-11-01', 1)`,
    );
    await db.pool.query(
      `insert into listing_eod (seller_id, day, product_id, normal_price, effective_price, price_type, stock_out, currency)
       values (12, '2026-11-01', $1, 10, 10, 'NORMAL', false, 'CLP')`,
      [p[0].id],
    );
    const count = async () =>
      (
        await db.pool.query(
          `select (select count(*) from price_intervals where product_id = $1)::int as intervals,
                  (select count(*) from listing_eod where product_id = $1)::int as eod`,
          [p[0].id],
        )
      ).rows[0];
    expect(await count()).toEqual({ intervals: 2, eod: 1 });
    await db.pool.query('delete from products where id = $1', [p[0].id]);
    expect(await count()).toEqual({ intervals: 0, eod: 0 });
  });

  it('refuses observations older than the last one of the seller', async () => {
    await expect(
      observe(db.pool, 5, '2026-10-01T00:00:00Z', [{ productId: 'P1', normalPrice: 1 }]),
    ).rejects.toThrow(/anterior/);
  });
});

describe('ingestObservations of a run handed over in parts (async iterable)', () => {
  const run = (sellerId: number, at: string, mode: 'full' | 'partial' = 'full') => ({
    sellerId,
    source: 'test' as const,
    mode,
    observedAt: new Date(at),
  });
  async function* partsOf(parts: Observation[][], failAfter?: number) {
    let k = 0;
    for (const p of parts) {
      if (failAfter !== undefined && k++ === failAfter) throw new Error('la fuente falló');
      yield p;
    }
  }
  const item = (id: string, price: number, ean?: string) => ({
    productId: id,
    name: `Ítem ${id}`,
    normalPrice: price,
    ean,
  });
  const listings = async (sellerId: number) =>
    (
      await db.pool.query(
        `select p.product_id, p.published, lc.normal_price,
                (select count(*)::int from price_intervals pi where pi.product_id = p.id) as intervals
           from products p left join listing_current lc on lc.product_id = p.id
          where p.seller_id = $1 order by 1`,
        [sellerId],
      )
    ).rows;

  it('lands parts as one run: same listings, one record, unpublishes only what no part listed', async () => {
    await insertSeller(db.pool, { id: 21, name: 'Por partes' });
    const first = await ingestObservations(
      db.pool,
      run(21, '2026-11-01T12:00:00Z'),
      partsOf([[item('A', 100), item('B', 200)], [item('C', 300, '7800000000219')], [item('D', 400)]]),
    );
    expect(first).toMatchObject({ observations: 4, newListings: 4, changes: 4, unpublished: 0 });
    // B changes in the first part, C is listed only in the last one, D is gone
    const second = await ingestObservations(
      db.pool,
      run(21, '2026-11-02T12:00:00Z'),
      partsOf([[item('A', 100), item('B', 150)], [], [item('C', 300, '7800000000219')]]),
    );
    expect(second).toMatchObject({ observations: 3, newListings: 0, changes: 1, unpublished: 1 });
    expect(await listings(21)).toEqual([
      { product_id: 'A', published: true, normal_price: 100, intervals: 1 },
      { product_id: 'B', published: true, normal_price: 150, intervals: 2 },
      { product_id: 'C', published: true, normal_price: 300, intervals: 1 },
      { product_id: 'D', published: false, normal_price: 400, intervals: 1 },
    ]);
    const { rows } = await db.pool.query(
      `select count(*)::int n, sum(observations)::int o from ingest_runs where seller_id = 21 and status = 'succeeded'`,
    );
    expect(rows[0]).toEqual({ n: 2, o: 7 });
    // C joined its EAN's group although it came in a later part
    const { rows: m } = await db.pool.query(
      `select g.ean from match_members mm join match_groups g on g.id = mm.group_id
         join products p on p.id = mm.product_id where p.seller_id = 21`,
    );
    expect(m).toEqual([{ ean: '7800000000219' }]); // (a check digit that fails: kept as spelled)
  });

  it('a source that fails half-way leaves nothing of its earlier parts, and is not recorded as an ingest failure', async () => {
    await insertSeller(db.pool, { id: 22, name: 'Falla a medias' });
    const runsBefore = (await db.pool.query('select count(*)::int n from ingest_runs')).rows[0].n;
    await expect(
      ingestObservations(
        db.pool,
        run(22, '2026-11-01T12:00:00Z'),
        partsOf([[item('A', 100)], [item('B', 200)], [item('C', 300)]], 2),
      ),
    ).rejects.toThrow('la fuente falló');
    expect(await listings(22)).toEqual([]);
    expect((await db.pool.query('select count(*)::int n from ingest_runs')).rows[0].n).toBe(runsBefore);
    // the same run again, whole, lands
    await ingestObservations(
      db.pool,
      run(22, '2026-11-01T12:00:00Z'),
      partsOf([[item('A', 100)], [item('B', 200)], [item('C', 300)]]),
    );
    expect((await listings(22)).map((r) => r.product_id)).toEqual(['A', 'B', 'C']);
  });

  it('refuses a product id repeated in two parts (a failed run that writes nothing); within a part the last wins', async () => {
    await insertSeller(db.pool, { id: 23, name: 'Repite entre partes' });
    await expect(
      ingestObservations(
        db.pool,
        run(23, '2026-11-01T12:00:00Z'),
        partsOf([[item('A', 100), item('A', 90)], [item('B', 1)], [item('A', 80)]]),
      ),
    ).rejects.toThrow('el producto A aparece en dos partes de la misma ejecución');
    expect(await listings(23)).toEqual([]);
    const { rows } = await db.pool.query(
      `select status from ingest_runs where seller_id = 23 order by id desc limit 1`,
    );
    expect(rows[0].status).toBe('failed');
    const ok = await ingestObservations(
      db.pool,
      run(23, '2026-11-01T12:00:00Z'),
      partsOf([[item('A', 100), item('A', 90)], [item('B', 1)]]),
    );
    expect(ok).toMatchObject({ observations: 2, newListings: 2 });
    expect((await listings(23)).map((r) => [r.product_id, r.normal_price])).toEqual([
      ['A', 90],
      ['B', 1],
    ]);
  });
});

describe('ingestObservations across processes (two pools on one database)', () => {
  it('notices another process ingested in between and compares with the database', async () => {
    const other = createPool(db.url, 2); // a second "process": its own memory of sellers' last runs
    try {
      await insertSeller(db.pool, { id: 9, name: 'Otro' });
      const a = (at: string, obs: Parameters<typeof observe>[3]) => observe(db.pool, 9, at, obs);
      const b = (at: string, obs: Parameters<typeof observe>[3]) => observe(other, 9, at, obs);
      await a('2026-11-10T12:00:00Z', [
        { productId: 'X', normalPrice: 100 },
        { productId: 'Y', normalPrice: 200 },
      ]);
      // the other process changes X and unpublishes Y
      const r2 = await b('2026-11-11T12:00:00Z', [{ productId: 'X', normalPrice: 90 }]);
      expect(r2).toMatchObject({ changes: 1, unpublished: 1 });
      // back in the first process: the same observation as the last one is no change…
      const r3 = await a('2026-11-12T12:00:00Z', [{ productId: 'X', normalPrice: 90 }]);
      expect(r3).toMatchObject({ changes: 0, unpublished: 0, newListings: 0 });
      // …and Y coming back is a re-publication with a new interval
      const r4 = await b('2026-11-13T12:00:00Z', [
        { productId: 'X', normalPrice: 90 },
        { productId: 'Y', normalPrice: 200 },
      ]);
      expect(r4).toMatchObject({ changes: 1, unpublished: 0, newListings: 0 });
      const r5 = await a('2026-11-14T12:00:00Z', [{ productId: 'Y', normalPrice: 200 }]);
      expect(r5).toMatchObject({ changes: 0, unpublished: 1 });
      const { rows } = await db.pool.query(
        `select p.product_id, p.published, to_char(pi.valid_from at time zone 'UTC', 'DD') f,
                to_char(pi.valid_to at time zone 'UTC', 'DD') t, pi.normal_price
           from products p join price_intervals pi on pi.product_id = p.id
          where p.seller_id = 9 order by 1, pi.valid_from`,
      );
      expect(rows).toEqual([
        { product_id: 'X', published: false, f: '10', t: '11', normal_price: 100 },
        { product_id: 'X', published: false, f: '11', t: '14', normal_price: 90 },
        { product_id: 'Y', published: true, f: '10', t: '11', normal_price: 200 },
        { product_id: 'Y', published: true, f: '13', t: null, normal_price: 200 },
      ]);
    } finally {
      await other.end();
    }
  });
});

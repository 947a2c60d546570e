import { foldText, trigramSimilarity, trigrams } from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { createTestDatabase } from '../../test/context.js';
import {
  insertClassification,
  insertOrgWithLicense,
  insertSeller,
  insertUser,
  observe,
  seedReferenceData,
} from '../../test/fixtures.js';
import { decideMatches } from './decide.js';
import { refreshMatchKeys } from './keys.js';
import { runMatching } from './pipeline.js';
import { TitleIndex } from './title-index.js';

// The matching run on a hand-made market: pivot 5, competitors 6 and 7. Expected decisions are read from
// the titles (each pair's agreeing and disagreeing parts are in the comments).

let db: Database;
let userId: number;
const id: Record<string, number> = {};
let leaf: number;

const member = async (ref: string) => {
  const { rows } = await db.pool.query(
    `select m.group_id::int, m.method, m.status, m.score, m.target_product_id::int as target, lc.group_id::int as lc_group,
            lc.match_status
       from products p join listing_current lc on lc.product_id = p.id
       left join match_members m on m.product_id = p.id and m.status <> 'rejected'
      where p.id = $1`,
    [id[ref]],
  );
  return rows[0];
};
const groupOf = async (ref: string) => (await member(ref)).lc_group as number | null;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedReferenceData(db.pool);
  for (const s of [5, 6, 7]) await insertSeller(db.pool, { id: s, name: `Tienda ${s}` });
  leaf = await insertClassification(db.pool, 'Despensa');
  const { orgId } = await insertOrgWithLicense(db.pool, {
    sellers: [6, 7],
    pivots: [5],
    currencies: ['CLP'],
    modules: ['dpm'],
  });
  userId = await insertUser(db.pool, orgId, 'analista@x.cl');
  const c = { classificationId: leaf };
  await observe(db.pool, 5, '2026-11-01T12:00:00Z', [
    { ...c, productId: 'P-LECHE', brand: 'Colun', name: 'Leche Entera Colun 1 L', normalPrice: 1000 },
    { ...c, productId: 'P-ARROZ1', brand: 'Tucapel', name: 'Arroz Grado 2 Tucapel 1 kg', normalPrice: 1500 },
    { ...c, productId: 'P-ARROZ5', brand: 'Tucapel', name: 'Arroz Grado 2 Tucapel 500 g', normalPrice: 900 },
    {
      ...c,
      productId: 'P-GTIN',
      brand: 'Chef',
      ean: '4006381333931',
      name: 'Aceite Maravilla Chef 1 L',
      normalPrice: 2500,
    },
    {
      ...c,
      productId: 'P-CEL',
      brand: 'Samsung',
      name: 'Smartphone Samsung Galaxy A54 128 GB Negro',
      normalPrice: 300000,
    },
    {
      ...c,
      productId: 'P-YOG',
      brand: 'Soprole',
      name: 'Yogur Batido Soprole Frutilla 165 g',
      normalPrice: 400,
    },
  ]);
  await observe(db.pool, 6, '2026-11-01T12:00:00Z', [
    // brand, quantity (1000 ml = 1 L), variant and name agree → automatic
    { ...c, productId: 'C-LECHE', brand: 'COLUN', name: 'COLUN LECHE ENTERA 1000 ML', normalPrice: 990 },
    // 500 g against both rices: agrees with the 500 g one only → automatic into P-ARROZ5's group
    { ...c, productId: 'C-ARROZ5', brand: 'Tucapel', name: 'arroz tucapel grado 2 500 gr', normalPrice: 880 },
    // GTIN-13 written as GTIN-14 (leading zero): one GTIN, joined by ingest's EAN step (normalised)
    {
      ...c,
      productId: 'C-GTIN',
      brand: 'Chef',
      ean: '04006381333931',
      name: 'Aceite vegetal 1000 cc',
      normalPrice: 2400,
    },
    // an invalid code equal to nothing: ignored, matched by title
    {
      ...c,
      productId: 'C-BADEAN',
      brand: 'Soprole',
      ean: '4006381333932',
      name: 'Yoghurt batido frutilla Soprole 165 gr',
      normalPrice: 420,
    },
    // MPN within the same brand (set below: feeds carry it)
    { ...c, productId: 'C-CEL', brand: 'SAMSUNG', name: 'Celular SM-A546E', normalPrice: 299990 },
  ]);
  await observe(db.pool, 7, '2026-11-01T12:00:00Z', [
    // "Integral" said by this title only: reviewable, never automatic → suggestion
    {
      ...c,
      productId: 'D-ARROZ',
      brand: 'Tucapel',
      name: 'Arroz Tucapel Grado 2 Integral 1 kg',
      normalPrice: 1400,
    },
    // another brand: nothing
    { ...c, productId: 'D-LECHE', brand: 'Soprole', name: 'Leche Entera Soprole 1 L', normalPrice: 950 },
  ]);
  await db.pool.query(`update products set mpn = 'SM-A546E' where product_id in ('P-CEL', 'C-CEL')`);
  const { rows } = await db.pool.query<{ product_id: string; id: number }>(
    'select product_id, id::int from products',
  );
  for (const r of rows) id[r.product_id] = r.id;
});
afterAll(() => db?.close());

describe('trigram similarity in the process', () => {
  it('is pg_trgm’s similarity(), to the float', async () => {
    const titles = [
      'Leche Entera Colun 1 L',
      'LECHE COLUN ENTERA 1000 ML',
      'Arroz Grado 2 Tucapel 1 kg',
      'arroz tucapel grado 2, 1 kilo',
      'Cerveza Cristal Lata 6x350cc',
      'Bebida Coca-Cola Zero 1,5 lt x6',
      'Smartphone Samsung Galaxy A15 128GB Negro',
      'Televisor LG 55" UHD 4K 55UR7300',
      'Ñandú Azúcar Rubia 1kg',
      'a',
      '',
    ].map((t) => foldText(t));
    const { rows } = await db.pool.query<{ a: string; b: string; sim: number }>(
      `select a, b, similarity(a, b)::float8 as sim from unnest($1::text[]) a, unnest($1::text[]) b`,
      [titles],
    );
    expect(rows).toHaveLength(titles.length ** 2);
    for (const r of rows) {
      // pg_trgm computes in float4: equal to its precision
      expect(trigramSimilarity(trigrams(r.a), trigrams(r.b)), `${r.a} | ${r.b}`).toBeCloseTo(r.sim, 6);
    }
    const { rows: shown } = await db.pool.query<{ t: string[] }>(`select show_trgm($1) as t`, [titles[0]]);
    expect(trigrams(titles[0]).sort()).toEqual(shown[0].t.sort());
  });
});

describe('runMatching', () => {
  it('matches identifiers first, then titles by score, leaving other brands alone', async () => {
    const r = await runMatching(db.pool);
    expect(r).toMatchObject({ gtin: 0, mpn: 1, auto: 3, suggested: 1 });
    expect(await member('C-GTIN')).toMatchObject({
      method: 'ean',
      status: 'confirmed',
      lc_group: await groupOf('P-GTIN'),
    });
    expect(await member('C-CEL')).toMatchObject({
      method: 'mpn',
      status: 'confirmed',
      lc_group: await groupOf('P-CEL'),
    });
    const leche = await member('C-LECHE');
    expect(leche).toMatchObject({
      method: 'auto',
      status: 'confirmed',
      target: id['P-LECHE'],
      match_status: 'confirmed',
    });
    expect(await member('P-LECHE')).toMatchObject({
      method: 'anchor',
      status: 'confirmed',
      group_id: leche.group_id,
    });
    expect(await member('C-ARROZ5')).toMatchObject({ method: 'auto', target: id['P-ARROZ5'] });
    expect(await member('C-BADEAN')).toMatchObject({ method: 'auto', target: id['P-YOG'] });
    expect(await member('D-ARROZ')).toMatchObject({
      method: 'title',
      status: 'suggested',
      target: id['P-ARROZ1'],
    });
    expect(await member('D-LECHE')).toMatchObject({ group_id: null, lc_group: null });
    const { rows } = await db.pool.query(`select parts from match_members where product_id = $1`, [
      id['D-ARROZ'],
    ]);
    expect(rows[0].parts).toContainEqual({ part: 'variant', verdict: 'missing', a: 'integral', b: '—' });
  });

  it('a listing in a confirmed group is not offered again; a second run changes nothing', async () => {
    const r = await runMatching(db.pool);
    expect(r).toMatchObject({ considered: 1, gtin: 0, mpn: 0, auto: 0, suggested: 0 }); // only D-LECHE is left
  });

  it('a rejected pair never comes back, after a new import too', async () => {
    const g = await groupOf('D-ARROZ');
    expect(
      await decideMatches(
        db.pool,
        [{ groupId: g as number, productId: id['D-ARROZ'], action: 'reject' }],
        userId,
      ),
    ).toBe(1);
    expect(await member('D-ARROZ')).toMatchObject({ group_id: null, lc_group: null });
    // a new import: new price, the title re-written
    await observe(db.pool, 7, '2026-11-02T12:00:00Z', [
      {
        classificationId: leaf,
        productId: 'D-ARROZ',
        brand: 'Tucapel',
        name: 'Arroz Tucapel Grado 2 Integral 1 kilo',
        normalPrice: 1300,
      },
      {
        classificationId: leaf,
        productId: 'D-LECHE',
        brand: 'Soprole',
        name: 'Leche Entera Soprole 1 L',
        normalPrice: 950,
      },
    ]);
    await runMatching(db.pool, { sellerId: 7 });
    expect(await member('D-ARROZ')).toMatchObject({ group_id: null, lc_group: null });
    const { rows } = await db.pool.query(
      `select action, prev_status, new_status, user_id from match_decisions where product_id = $1 order by id`,
      [id['D-ARROZ']],
    );
    expect(rows).toEqual([
      { action: 'auto', prev_status: null, new_status: 'suggested', user_id: null },
      { action: 'reject', prev_status: 'suggested', new_status: 'rejected', user_id: userId },
    ]);
  });

  it('undo restores the previous groups (and the run does not redo what a person undid)', async () => {
    const g = (await groupOf('C-LECHE')) as number;
    await decideMatches(db.pool, [{ groupId: g, productId: id['C-LECHE'], action: 'undo' }], userId);
    expect(await member('C-LECHE')).toMatchObject({ group_id: null, lc_group: null, match_status: null });
    expect(await groupOf('P-LECHE')).toBe(g); // the pivot's group stays
    await runMatching(db.pool, { sellerId: 6 });
    expect(await member('C-LECHE')).toMatchObject({ group_id: null });
    // undo the undo: back in the group, as before
    await decideMatches(db.pool, [{ groupId: g, productId: id['C-LECHE'], action: 'undo' }], userId);
    expect(await member('C-LECHE')).toMatchObject({
      group_id: g,
      status: 'confirmed',
      method: 'auto',
      lc_group: g,
    });
    // accept then undo → the automatic match as it was (confirmed, method auto, no person)
    await decideMatches(db.pool, [{ groupId: g, productId: id['C-LECHE'], action: 'reject' }], userId);
    await decideMatches(db.pool, [{ groupId: g, productId: id['C-LECHE'], action: 'undo' }], userId);
    expect(await member('C-LECHE')).toMatchObject({ group_id: g, status: 'confirmed', lc_group: g });
  });

  it('moves the data version of the sellers whose listings changed', async () => {
    const seq = async () =>
      (await db.pool.query<{ s: number }>('select ingest_seq::int as s from sellers where id = 6')).rows[0].s;
    const before = await seq();
    const g = (await groupOf('C-ARROZ5')) as number;
    await decideMatches(db.pool, [{ groupId: g, productId: id['C-ARROZ5'], action: 'reject' }], userId);
    expect(await seq()).toBe(before + 1);
  });
});

describe('the title index kept between runs (title-index.ts)', () => {
  it('learns new and re-titled listings, and forgets a deleted one', async () => {
    const index = new TitleIndex();
    const colun = async () => (await index.blocksFor(db.pool, ['colun'])).get('colun');
    const count = async () =>
      (
        await db.pool.query<{ n: number }>(
          `select count(*)::int as n from match_keys where brand_key = 'colun'`,
        )
      ).rows[0].n;
    const first = await colun();
    expect(first?.size).toBe(await count());
    // a new listing of the brand, its key made by a run: the kept block learns it from match_keys.seq
    await observe(
      db.pool,
      7,
      '2026-11-03T12:00:00Z',
      [
        {
          classificationId: leaf,
          productId: 'D-MANT',
          brand: 'Colun',
          name: 'Mantequilla Colun 250 g',
          normalPrice: 2000,
        },
      ],
      'partial',
    );
    await refreshMatchKeys(db.pool);
    const mant = (
      await db.pool.query<{ id: number }>(`select id::int from products where product_id = 'D-MANT'`)
    ).rows[0].id;
    const second = await colun();
    expect(second).toBe(first); // the same block, brought up to date
    expect(second?.has(mant)).toBe(true);
    expect(second?.best('mantequilla colun 250 g', 5, 1)[0]).toEqual({
      target: { id: mant, sellerId: 7 },
      similarity: 1,
    });
    // re-titled: its old title no longer finds it first
    await observe(
      db.pool,
      7,
      '2026-11-04T12:00:00Z',
      [
        {
          classificationId: leaf,
          productId: 'D-MANT',
          brand: 'Colun',
          name: 'Queso Gauda Colun 250 g',
          normalPrice: 2000,
        },
      ],
      'partial',
    );
    await refreshMatchKeys(db.pool);
    const third = await colun();
    expect(third?.best('queso gauda colun 250 g', 5, 1)[0].target.id).toBe(mant);
    expect(third?.best('mantequilla colun 250 g', 5, 1)[0].similarity).toBeLessThan(1);
    // a key gone without a new seq (a listing deleted): the count differs, the block is made again
    await db.pool.query('delete from match_keys where product_id = $1', [mant]);
    const fourth = await colun();
    expect(fourth).not.toBe(first);
    expect(fourth?.has(mant)).toBe(false);
    expect(fourth?.size).toBe(await count());
  });
});

describe('a seller’s run (the match-seller job) scores again only what may have changed', () => {
  it('nothing new: nothing scored; a pivot’s new listing of a brand: that brand’s unmatched listings again', async () => {
    await runMatching(db.pool, { sellerId: 7 }); // the seller's first run: every listing of it in no group
    expect(await member('D-LECHE')).toMatchObject({ group_id: null });
    expect(await runMatching(db.pool, { sellerId: 7 })).toMatchObject({ considered: 0 });
    // the pivot sells Soprole's whole milk now; its key is made by seller 7's run (seller 5's data moved)
    await observe(
      db.pool,
      5,
      '2026-11-05T12:00:00Z',
      [
        {
          classificationId: leaf,
          productId: 'P-LECHE-S',
          brand: 'Soprole',
          name: 'Leche Entera Soprole 1 L',
          normalPrice: 940,
        },
      ],
      'partial',
    );
    const pivotMilk = (
      await db.pool.query<{ id: number }>(`select id::int from products where product_id = 'P-LECHE-S'`)
    ).rows[0].id;
    // only the Soprole listings of seller 7 in no group are scored (D-LECHE), and it is matched
    expect(await runMatching(db.pool, { sellerId: 7 })).toMatchObject({ considered: 1, auto: 1 });
    expect(await member('D-LECHE')).toMatchObject({ method: 'auto', status: 'confirmed', target: pivotMilk });
    expect(await runMatching(db.pool, { sellerId: 7 })).toMatchObject({ considered: 0 });
  });
});

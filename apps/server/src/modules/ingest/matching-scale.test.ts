import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { createTestDatabase } from '../../test/context.js';
import { insertClassification, insertSeller, observe, seedReferenceData } from '../../test/fixtures.js';
import { titleSuggestions, tokenJaccard } from './matching.js';

// The title suggestions are computed brand by brand in the process (issue 30: on the large market the
// pairs relation spilled tens of gigabytes). The reference is the statement they replace, kept here:
// every candidate against every confirmed title of its brand and classification, pg_trgm's similarity().
const REFERENCE_PAIRS = `
  with cand as (
    select p.id, p.seller_id, p.name, p.brand_id, p.classification_id
      from products p
     where p.ean is null and p.published and p.name is not null and p.brand_id is not null
       and not exists (select 1 from match_members m where m.product_id = p.id and m.status <> 'rejected')
  )
  select distinct c.id as product_id, c.name, m.group_id, o.name as other_name
    from cand c
    join products o on o.brand_id = c.brand_id and o.classification_id is not distinct from c.classification_id
                   and o.seller_id <> c.seller_id and o.published and o.name is not null
    join match_members m on m.product_id = o.id and m.status = 'confirmed'
   where not exists (select 1 from match_members r
                      where r.product_id = c.id and r.group_id = m.group_id and r.status = 'rejected')
     and not exists (select 1 from match_members s join products ps on ps.id = s.product_id
                      where s.group_id = m.group_id and s.status <> 'rejected' and ps.seller_id = c.seller_id)`;

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
  await seedReferenceData(db.pool);
  for (const id of [5, 7, 9, 11]) await insertSeller(db.pool, { id, name: `S${id}` });
  const leaves = [
    await insertClassification(db.pool, 'Lácteos'),
    await insertClassification(db.pool, 'Aseo'),
  ];
  const kinds = [
    'Leche Entera',
    'Leche Descremada',
    'Yogur Frutilla',
    'Yogur Natural',
    'Mantequilla con Sal',
  ];
  const sizes = ['1 L', '1L', '500 ml', '200 g', '6 x 1 L'];
  // sellers 7 and 9 list with EAN (their groups are confirmed); 5 and 11 list some without EAN, worded
  // otherwise; seller 5 also lists one product with EAN (so that group has a listing of 5 already)
  for (const seller of [7, 9, 5, 11]) {
    const rows = [];
    for (const [b, brand] of ['Colun', 'Soprole', 'Nestlé'].entries())
      for (const [k, kind] of kinds.entries())
        for (const [z, size] of sizes.entries()) {
          const n = b * 100 + k * 10 + z;
          if ((n + seller) % 3 === 0) continue;
          const withEan = seller === 7 || seller === 9 || (seller === 5 && n % 7 === 0);
          const words = seller === 11 ? `${brand.toUpperCase()} ${kind} ${size}` : `${kind} ${brand} ${size}`;
          rows.push({
            brand,
            classificationId: leaves[(k + (seller === 11 && z === 4 ? 1 : 0)) % 2 === 0 ? 0 : 1],
            productId: `${seller}-${n}`,
            ean: withEan ? `780${String(n).padStart(9, '0')}${seller % 10}` : undefined,
            name: seller === 9 ? `${words} ${z % 2 ? 'Pack' : ''}`.trim() : words,
            normalPrice: 1000 + n,
          });
        }
    await observe(db.pool, seller, '2026-11-01T12:00:00Z', rows);
  }
  // a rejected pair: the first candidate of seller 11 was refused from some group
  await db.pool.query(
    `insert into match_members (group_id, product_id, method, confidence, status)
     select (select min(id) from match_groups), (select min(id) from products where seller_id = 11 and ean is null),
            'title', 0.8, 'rejected'`,
  );
});
afterAll(() => db?.close());

type Best = { product_id: number; group_id: number; sim: number };
function bestOf(rows: { product_id: number; group_id: number; sim: number }[], min: number): Best[] {
  const top = new Map<number, Best>();
  for (const r of rows) {
    if (r.sim < min) continue;
    const cur = top.get(r.product_id);
    if (!cur || r.sim > cur.sim || (r.sim === cur.sim && r.group_id < cur.group_id)) top.set(r.product_id, r);
  }
  return [...top.values()].sort((a, b) => a.product_id - b.product_id);
}

describe('title suggestions brand by brand, against the statement they replace', () => {
  it('the fixture has candidates, groups, a group with the candidate seller and a rejected pair', async () => {
    const { rows } = await db.pool.query<{ cand: number; groups: number; rejected: number }>(
      `select (select count(*)::int from products where ean is null) as cand,
              (select count(*)::int from match_groups) as groups,
              (select count(*)::int from match_members where status = 'rejected') as rejected`,
    );
    expect(rows[0].cand).toBeGreaterThan(40);
    expect(rows[0].groups).toBeGreaterThan(40);
    expect(rows[0].rejected).toBe(1);
  });

  for (const min of [0.3, 0.5]) {
    it(`pg_trgm's similarity, threshold ${min}: the same best group and similarity per listing`, async () => {
      const { rows } = await db.pool.query<Best>(
        `select product_id, group_id, similarity(name, other_name)::float8 as sim from (${REFERENCE_PAIRS}) x`,
      );
      const expected = bestOf(rows, min);
      expect(expected.length).toBeGreaterThan(10);
      const client = await db.pool.connect();
      try {
        const got = await titleSuggestions(client, 'trgm', min, null);
        expect(got).toEqual(expected);
      } finally {
        client.release();
      }
    });

    it(`word Jaccard, threshold ${min}: the same best group and similarity per listing`, async () => {
      const { rows } = await db.pool.query<{
        product_id: number;
        group_id: number;
        name: string;
        other_name: string;
      }>(REFERENCE_PAIRS);
      const expected = bestOf(
        rows.map((r) => ({
          product_id: r.product_id,
          group_id: r.group_id,
          sim: tokenJaccard(r.name, r.other_name),
        })),
        min,
      );
      expect(expected.length).toBeGreaterThan(10);
      const client = await db.pool.connect();
      try {
        expect(await titleSuggestions(client, 'jaccard', min, null)).toEqual(expected);
      } finally {
        client.release();
      }
    });
  }
});

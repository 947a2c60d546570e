import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { createTestDatabase } from '../../test/context.js';
import { insertClassification, insertSeller, observe, seedReferenceData } from '../../test/fixtures.js';
import { confirmMatch, rejectMatch } from '../matching/index.js';
import { confidenceOf, hasTrigram, suggestTitleMatches, titleTokens, tokenJaccard } from './matching.js';

describe('title similarity (pure)', () => {
  it('normalises case, accents and "1kg"-style sizes', () => {
    expect([...titleTokens('Azúcar GRANULADA 1kg')]).toEqual(['azucar', 'granulada', '1', 'kg']);
    expect(tokenJaccard('Leche Entera Colun 1 L', 'LECHE ENTERA 1L COLUN')).toBe(1);
    expect(tokenJaccard('Leche Entera Colun 1 L', 'Leche Descremada Colun 1 L')).toBeCloseTo(4 / 6);
  });
  it('maps similarity onto a confidence in [0.7, 0.95]', () => {
    expect(confidenceOf(0.5, 0.5)).toBe(0.7);
    expect(confidenceOf(1, 0.5)).toBe(0.95);
    expect(confidenceOf(0.75, 0.5)).toBe(0.825);
  });
});

let db: Database;
let leaf: number;
const ids: Record<string, number> = {};
let userId: number;
beforeAll(async () => {
  db = await createTestDatabase();
  await seedReferenceData(db.pool);
  for (const id of [5, 7, 9]) await insertSeller(db.pool, { id, name: `S${id}` });
  leaf = await insertClassification(db.pool, 'Leche');
  const o = { brand: 'Colun', classificationId: leaf };
  await observe(db.pool, 7, '2026-11-01T12:00:00Z', [
    { ...o, productId: 'E1', ean: '7800000000011', name: 'Leche Entera Colun 1 L', normalPrice: 1000 },
    { ...o, productId: 'D1', ean: '7800000000028', name: 'Leche Descremada Colun 1 L', normalPrice: 1000 },
  ]);
  await observe(db.pool, 5, '2026-11-01T12:00:00Z', [
    { ...o, productId: 'X5', name: 'LECHE ENTERA COLUN 1L', normalPrice: 990 },
    { ...o, productId: 'Y5', name: 'Mantequilla con sal 250 g', normalPrice: 2490 },
  ]);
  await observe(db.pool, 9, '2026-11-01T12:00:00Z', [
    { ...o, productId: 'X9', name: 'Leche Entera 1 L Colun', normalPrice: 1010 },
  ]);
  const { rows } = await db.pool.query<{ product_id: string; id: number }>(
    'select product_id, id from products',
  );
  for (const r of rows) ids[r.product_id] = r.id;
  const { rows: u } = await db.pool.query<{ id: number }>(
    `with o as (insert into organisations (name) values ('Org') returning id)
     insert into users (org_id, email, password_hash) select id, 'a@b.cl', 'x' from o returning id`,
  );
  userId = u[0].id;
});
afterAll(() => db?.close());

const state = async (pid: string) => {
  const { rows } = await db.pool.query(
    `select lc.group_id, lc.match_status, g.ean, mm.method, mm.status, mm.confidence
       from listing_current lc
       left join match_members mm on mm.product_id = lc.product_id and mm.status <> 'rejected'
       left join match_groups g on g.id = lc.group_id
      where lc.product_id = $1`,
    [ids[pid]],
  );
  return rows[0];
};

describe('suggestTitleMatches / confirmMatch / rejectMatch', () => {
  it('the embedded PostgreSQL has pg_trgm (migration 012)', async () => {
    expect(await hasTrigram(db.pool)).toBe(true);
  });

  it('suggests listings without EAN into the most similar group (word Jaccard)', async () => {
    const r = await suggestTitleMatches(db.pool, { sellerId: 9, method: 'jaccard' });
    expect(r).toEqual({ suggested: 1, method: 'jaccard' });
    expect(await state('X9')).toMatchObject({
      ean: '7800000000011',
      match_status: 'suggested',
      method: 'title',
      status: 'suggested',
      confidence: 0.95,
    });
  });

  it('suggests with trigram similarity, leaving dissimilar titles alone', async () => {
    const r = await suggestTitleMatches(db.pool, { method: 'trgm' });
    expect(r.suggested).toBe(1); // X5 (X9 already has a live suggestion; Y5 matches nothing)
    const x5 = await state('X5');
    expect(x5).toMatchObject({ ean: '7800000000011', match_status: 'suggested', method: 'title' });
    expect(x5.confidence).toBeGreaterThanOrEqual(0.7);
    expect(x5.confidence).toBeLessThanOrEqual(0.95);
    expect(await state('Y5')).toMatchObject({ group_id: null, match_status: null });
  });

  it('confirm makes the match confirmed; reject removes it and it is never suggested again', async () => {
    const x9 = await state('X9');
    await confirmMatch(db.pool, x9.group_id, ids.X9, userId);
    expect(await state('X9')).toMatchObject({
      match_status: 'confirmed',
      status: 'confirmed',
      method: 'title',
    });
    const { rows } = await db.pool.query('select decided_by from match_members where product_id = $1', [
      ids.X9,
    ]);
    expect(rows[0].decided_by).toBe(userId);

    const x5 = await state('X5');
    await rejectMatch(db.pool, x5.group_id, ids.X5, userId);
    expect(await state('X5')).toMatchObject({ group_id: null, match_status: null });
    await suggestTitleMatches(db.pool, { sellerId: 5 });
    const again = await state('X5');
    expect(again.group_id).not.toBe(x5.group_id); // maybe suggested elsewhere, never into the rejected group

    await expect(confirmMatch(db.pool, 999_999, ids.X5, userId)).rejects.toThrow(/No existe/);
  });
});

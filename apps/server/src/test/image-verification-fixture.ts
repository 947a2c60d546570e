import type pg from 'pg';
import { pictureUrl } from '../platform/media/index.js';
import {
  insertClassification,
  insertOrgWithLicense,
  insertSeller,
  observe,
  seedReferenceData,
} from './fixtures.js';

// Image verification fixture: a brand (Polarix) with three reference pictures and listings at three
// sellers showing one kind of difference each (platform/media/pictures.ts), entered through the real ingest path
// (the image-verification roll-up creates the checks and queues the pairs).
//
//   seller 7 (pivot)        a1 identical (EAN A) → correct    b1 cropped (EAN B) → for review
//   seller 9 (competitor)   a2 recompressed (A)  → correct    b2 watermarked (B) → for review
//                           c1 recoloured (C)    → incorrect  c2 different (C)   → incorrect
//   seller 11 (not licensed to the analyst)  a3 identical (A)
// Analyst: sellers 9, pivot 7, module image_verification, own brand Polarix → 2 correct, 2 for review,
// 2 incorrect (seller 11 is outside the license).

export const IV_DAY = '2026-05-04'; // a Monday
export const IV_AT = '2026-05-04T14:00:00Z'; // 10:00 in Santiago
export const IV_KEYS = {
  A: 'fridge-POLARIX-7801234000017',
  B: 'washer-POLARIX-7801234000024',
  C: 'kettle-POLARIX-7801234000031',
} as const;
const EAN = { A: '7801234000017', B: '7801234000024', C: '7801234000031' } as const;

export interface ImageFixture {
  brandId: number;
  users: { analyst: number; orgAnalyst: number; noModule: number; orgNoModule: number };
}

async function insertUser(pool: pg.Pool, orgId: number, email: string, pivot: number): Promise<number> {
  const { rows } = await pool.query<{ id: number }>(
    `insert into users (org_id, email, name, password_hash, pivot_id) values ($1, $2, $3, 'x', $4) returning id`,
    [orgId, email, email.split('@')[0], pivot],
  );
  return rows[0].id;
}

const listing = (
  productId: string,
  ean: string,
  key: string,
  kind: Parameters<typeof pictureUrl>[1],
  leaf: number,
) => ({
  productId,
  sku: `SKU-${productId}`,
  ean,
  name: `Producto ${productId}`,
  brand: 'Polarix',
  url: `https://www.example.cl/p/${productId}`,
  imageUrl: pictureUrl(key, kind),
  classificationId: leaf,
  normalPrice: 1000,
});

export async function seedImageFixture(pool: pg.Pool): Promise<ImageFixture> {
  await seedReferenceData(pool);
  for (const id of [7, 9, 11]) await insertSeller(pool, { id, name: `Tienda ${id}` });
  const root = await insertClassification(pool, 'Electro');
  const leaf = await insertClassification(pool, 'Refrigeración', root);
  await pool.query(
    `insert into brands (name, normalized_name) values ('Polarix', 'polarix') on conflict do nothing`,
  );
  const { rows } = await pool.query<{ id: number }>(
    `select id from brands where normalized_name = 'polarix'`,
  );
  const brandId = rows[0].id;
  await pool.query(
    `insert into reference_images (ean, brand_id, image_url) values ($1, $4, $5), ($2, $4, $6), ($3, $4, $7)`,
    [EAN.A, EAN.B, EAN.C, brandId, pictureUrl(IV_KEYS.A), pictureUrl(IV_KEYS.B), pictureUrl(IV_KEYS.C)],
  );
  await observe(pool, 7, IV_AT, [
    listing('a1', EAN.A, IV_KEYS.A, 'identical', leaf),
    listing('b1', EAN.B, IV_KEYS.B, 'cropped', leaf),
  ]);
  await observe(pool, 9, IV_AT, [
    listing('a2', EAN.A, IV_KEYS.A, 'recompressed', leaf),
    listing('b2', EAN.B, IV_KEYS.B, 'watermarked', leaf),
    listing('c1', EAN.C, IV_KEYS.C, 'recoloured', leaf),
    listing('c2', EAN.C, IV_KEYS.C, 'different', leaf),
  ]);
  await observe(pool, 11, IV_AT, [listing('a3', EAN.A, IV_KEYS.A, 'identical', leaf)]);
  const a = await insertOrgWithLicense(pool, {
    sellers: [9],
    pivots: [7],
    currencies: ['CLP'],
    modules: ['image_verification'],
    brands: [brandId],
  });
  const n = await insertOrgWithLicense(pool, {
    orgName: 'Sin módulo',
    sellers: [9],
    pivots: [7],
    currencies: ['CLP'],
    modules: ['dpm'],
  });
  return {
    brandId,
    users: {
      analyst: await insertUser(pool, a.orgId, 'analista@example.cl', 7),
      orgAnalyst: a.orgId,
      noModule: await insertUser(pool, n.orgId, 'sinmodulo@example.cl', 7),
      orgNoModule: n.orgId,
    },
  };
}

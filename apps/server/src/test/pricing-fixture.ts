import type pg from 'pg';
import { signToken } from '../lib/jwt.js';
import {
  insertClassification,
  insertFxRate,
  insertOrgWithLicense,
  insertSeller,
  insertUser,
  observe,
  seedReferenceData,
} from './fixtures.js';

// The hand-computed pricing fixture of docs/metrics.md "Worked example". Every expected number in
// pricing.test.ts is derived by hand from the prices below (comments give the arithmetic).
//
// Sellers: 5 Pivote (CLP, pivot), 7 Rival A (CLP), 8 Rival B (CLP), 9 Rival Perú (PEN), 10 Fuera (unlicensed).
// fx_rates: PEN 250 CLP on T0's day − 60, 260 CLP on T0's day (latest); USD 900 CLP.
//
// Pivot listings (T1, full run)                       Competitors (T1)                   NSE index
//  P1 Leche Entera 1L   Colun  Leches  N 1000        A 1000 · B N1100 S950 · Perú 4 PEN  1000/950 = 105.26
//  P2 Leche Descremada  Colun  Leches  N900 S850     A 900 · B 700 stock-out             850/900  = 94.44
//  P3 Yogurt Frutilla   Soprole Yogures N500 X400    A 450                               400/450  = 88.89
//  P4 Detergente Líq.   Omo    Líquidos N10000 (out) A 9000 · B 9500                     10000/9000 = 111.11
//  P5 Detergente Polvo  Omo    Detergentes N5000     (no EAN, no match)                  —
//  P6 Leche Chocolate   Colun  Leches  N 800         B 780 seen at T0 only (unpublished) — (102.56 in a window incl. T0)

export const SELLERS = { pivot: 5, a: 7, b: 8, peru: 9, outside: 10 } as const;

export interface PricingFixture {
  t0: Date;
  t1: Date;
  users: {
    analyst: number;
    limited: number;
    reportsOnly: number;
    orgAnalyst: number;
    orgLimited: number;
    orgReportsOnly: number;
  };
  classes: Record<
    'alimentos' | 'lacteos' | 'leches' | 'yogures' | 'limpieza' | 'detergentes' | 'liquidos',
    number
  >;
  brands: Record<'colun' | 'soprole' | 'omo', number>;
  listings: Record<'p1' | 'p2' | 'p3' | 'p4' | 'p5' | 'p6', number>;
  categories: { despensa: number };
}

const day = (d: Date) => d.toISOString().slice(0, 10);

export async function seedPricingFixture(pool: pg.Pool): Promise<PricingFixture> {
  await seedReferenceData(pool);
  // T1 = a minute ago (seen "today"), T0 = 9 days before.
  const t1 = new Date(Date.now() - 60_000);
  const t0 = new Date(t1.getTime() - 9 * 86_400_000);
  await insertSeller(pool, { id: 5, name: 'Pivote', color: '#6a1b9a' });
  await insertSeller(pool, { id: 7, name: 'Rival A', color: '#1565c0' });
  await insertSeller(pool, { id: 8, name: 'Rival B', color: '#2e7d32' });
  await insertSeller(pool, { id: 9, name: 'Rival Perú', country: 'PE', currency: 'PEN', color: '#ef6c00' });
  await insertSeller(pool, { id: 10, name: 'Fuera', color: '#000000' });
  await insertFxRate(pool, 'PEN', day(new Date(t0.getTime() - 60 * 86_400_000)), 250);
  await insertFxRate(pool, 'PEN', day(t0), 260);
  await insertFxRate(pool, 'USD', day(t0), 900);

  const alimentos = await insertClassification(pool, 'Alimentos');
  const lacteos = await insertClassification(pool, 'Lácteos', alimentos);
  const leches = await insertClassification(pool, 'Leches', lacteos);
  const yogures = await insertClassification(pool, 'Yogures', lacteos);
  const limpieza = await insertClassification(pool, 'Limpieza');
  const detergentes = await insertClassification(pool, 'Detergentes', limpieza);
  const liquidos = await insertClassification(pool, 'Líquidos', detergentes);

  const food = ['Despensa', 'Lácteos'];
  const clean = ['Limpieza', 'Detergentes'];
  const pivotObs = [
    {
      productId: 'p1',
      sku: 'SKU-001',
      ean: 'E1',
      name: 'Leche Entera 1L',
      brand: 'Colun',
      classificationId: leches,
      categoryPath: food,
      normalPrice: 1000,
    },
    {
      productId: 'p2',
      sku: 'SKU-002',
      ean: 'E2',
      name: 'Leche Descremada 1L',
      brand: 'Colun',
      classificationId: leches,
      categoryPath: food,
      normalPrice: 900,
      salePrice: 850,
    },
    {
      productId: 'p3',
      sku: 'SKU-003',
      ean: 'E3',
      name: 'Yogurt Frutilla',
      brand: 'Soprole',
      classificationId: yogures,
      categoryPath: food,
      normalPrice: 500,
      exclusivePrice: 400,
    },
    {
      productId: 'p4',
      sku: 'SKU-004',
      ean: 'E4',
      name: 'Detergente Líquido 3L',
      brand: 'Omo',
      classificationId: liquidos,
      categoryPath: clean,
      normalPrice: 10000,
      stockOut: true,
    },
    {
      productId: 'p5',
      sku: 'SKU-005',
      ean: null,
      name: 'Detergente Polvo',
      brand: 'Omo',
      classificationId: detergentes,
      categoryPath: clean,
      normalPrice: 5000,
    },
    {
      productId: 'p6',
      sku: 'SKU-006',
      ean: 'E6',
      name: 'Leche Chocolate',
      brand: 'Colun',
      classificationId: leches,
      categoryPath: food,
      normalPrice: 800,
    },
  ];
  await observe(pool, 5, t1, pivotObs);
  await observe(pool, 8, t0, [{ productId: 'b6', ean: 'E6', name: 'Leche Chocolate', normalPrice: 780 }]);
  await observe(pool, 7, t1, [
    { productId: 'a1', ean: 'E1', name: 'Leche entera', normalPrice: 1000 },
    { productId: 'a2', ean: 'E2', name: 'Leche descremada', normalPrice: 900 },
    { productId: 'a3', ean: 'E3', name: 'Yogurt frutilla', normalPrice: 450 },
    { productId: 'a4', ean: 'E4', name: 'Detergente líquido', normalPrice: 9000 },
    { productId: 'a5', ean: null, name: 'Detergente en polvo', normalPrice: 5200 },
  ]);
  await observe(pool, 8, t1, [
    { productId: 'b1', ean: 'E1', name: 'Leche entera', normalPrice: 1100, salePrice: 950 },
    { productId: 'b2', ean: 'E2', name: 'Leche descremada', normalPrice: 700, stockOut: true },
    { productId: 'b4', ean: 'E4', name: 'Detergente líquido', normalPrice: 9500 },
  ]);
  await observe(pool, 9, t1, [{ productId: 'pe1', ean: 'E1', name: 'Leche entera', normalPrice: 4 }]);
  await observe(pool, 10, t1, [{ productId: 'f1', ean: 'E1', name: 'Leche entera', normalPrice: 10 }]);

  const ids = async (seller: number) =>
    Object.fromEntries(
      (
        await pool.query<{ product_id: string; id: number }>(
          'select product_id, id from products where seller_id = $1',
          [seller],
        )
      ).rows.map((r) => [r.product_id, r.id]),
    );
  const piv = await ids(5);
  const brand = async (n: string) =>
    (await pool.query<{ id: number }>('select id from brands where name = $1', [n])).rows[0].id;
  const brands = { colun: await brand('Colun'), soprole: await brand('Soprole'), omo: await brand('Omo') };
  const despensa = (
    await pool.query<{ id: number }>(`select id from categories where seller_id = 5 and name = 'Despensa'`)
  ).rows[0].id;

  const analystOrg = await insertOrgWithLicense(pool, {
    orgName: 'Analista',
    sellers: [7, 8, 9],
    pivots: [5],
    currencies: ['CLP', 'USD'],
    modules: ['dpm', 'ecommerce_navigation'],
    brands: [brands.colun],
  });
  const limitedOrg = await insertOrgWithLicense(pool, {
    orgName: 'Limitada',
    sellers: [7, 8],
    pivots: [5],
    currencies: ['CLP'],
    modules: ['dpm', 'reports'],
    classifications: [alimentos],
  });
  const reportsOrg = await insertOrgWithLicense(pool, {
    orgName: 'Solo reportes',
    sellers: [7, 8],
    pivots: [5],
    currencies: ['CLP'],
    modules: ['reports'],
  });
  const user = (orgId: number, email: string) => insertUser(pool, orgId, email);
  return {
    t0,
    t1,
    users: {
      analyst: await user(analystOrg.orgId, 'analista@example.com'),
      limited: await user(limitedOrg.orgId, 'limitada@example.com'),
      orgAnalyst: analystOrg.orgId,
      reportsOnly: await user(reportsOrg.orgId, 'reportes@example.com'),
      orgLimited: limitedOrg.orgId,
      orgReportsOnly: reportsOrg.orgId,
    },
    classes: { alimentos, lacteos, leches, yogures, limpieza, detergentes, liquidos },
    brands,
    listings: { p1: piv.p1, p2: piv.p2, p3: piv.p3, p4: piv.p4, p5: piv.p5, p6: piv.p6 },
    categories: { despensa },
  };
}

export function tokenOf(secret: string, sub: number, org: number): string {
  return signToken({ sub, org, ver: 0 }, secret, 3600);
}

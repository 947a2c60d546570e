import { addDays, isoDateInZone } from '@vigia/domain';
import type pg from 'pg';
import {
  insertClassification,
  insertFxRate,
  insertOrgWithLicense,
  insertSeller,
  insertUser,
  observe,
  seedReferenceData,
} from './fixtures.js';

// The hand-computed assortment fixture of docs/metrics.md "Assortment — worked example". Runs at noon
// (America/Santiago) on three days: P = base − 4 (end of the previous period), E = base − 2, base (end of
// the period). Period [base − 3, base], previous period [base − 7, base − 4].
//
// Seller 5 Pivote (CLP):  P: p1 Colun 1000, p2 Colun 2000, p3 Soprole 3000
//                         E: p2 out of stock, p4 (no brand, Limpieza) 700 new
//                         base: p2 back in stock, p3 unpublished (full run without it)
// Seller 7 Rival A (CLP): P: a1 Colun 1100, a2 Soprole 500, a3 Soprole 300
//                         E: a2 out of stock, a3 unpublished
//                         base: a1 1200 (price change), a2 still out
// Seller 9 Rival Perú (PEN, 250 CLP): P: e1 Colun 4 PEN (= 1000 CLP); no run after P (state carried)
// Classifications: p1 p2 a1 e1 Lácteos > Leches; p3 a2 a3 Lácteos > Yogures; p4 Limpieza.

export interface AssortmentFixture {
  days: { p: string; e: string; base: string; from: string; previousFrom: string };
  classes: { lacteos: number; leches: number; yogures: number; limpieza: number };
  brands: { colun: number; soprole: number };
  users: { analyst: number; orgAnalyst: number; noModule: number; orgNoModule: number };
}

const noon = (day: string) => new Date(`${day}T16:00:00Z`); // 12:00 / 13:00 in Santiago

export async function seedAssortmentFixture(pool: pg.Pool): Promise<AssortmentFixture> {
  await seedReferenceData(pool);
  const base = addDays(isoDateInZone(new Date(), 'America/Santiago'), -10);
  const p = addDays(base, -4);
  const e = addDays(base, -2);
  await insertSeller(pool, { id: 5, name: 'Pivote', color: '#6a1b9a' });
  await insertSeller(pool, { id: 7, name: 'Rival A', color: '#1565c0' });
  await insertSeller(pool, { id: 9, name: 'Rival Perú', country: 'PE', currency: 'PEN', color: '#ef6c00' });
  await insertSeller(pool, { id: 10, name: 'Fuera', color: '#000000' });
  await insertFxRate(pool, 'PEN', addDays(base, -60), 250);
  await insertFxRate(pool, 'USD', addDays(base, -60), 800);

  const lacteos = await insertClassification(pool, 'Lácteos');
  const leches = await insertClassification(pool, 'Leches', lacteos);
  const yogures = await insertClassification(pool, 'Yogures', lacteos);
  const limpieza = await insertClassification(pool, 'Limpieza');

  const item = (
    productId: string,
    name: string,
    brand: string | null,
    classificationId: number,
    price: number,
  ) => ({
    productId,
    ean: null,
    name,
    brand,
    classificationId,
    normalPrice: price,
  });
  const p1 = item('p1', 'Leche Entera', 'Colun', leches, 1000);
  const p2 = item('p2', 'Leche Descremada', 'Colun', leches, 2000);
  const p3 = item('p3', 'Yogurt Frutilla', 'Soprole', yogures, 3000);
  const p4 = item('p4', 'Detergente', null, limpieza, 700);
  const a1 = item('a1', 'Leche entera', 'Colun', leches, 1100);
  const a2 = item('a2', 'Yogurt', 'Soprole', yogures, 500);
  const a3 = item('a3', 'Yogurt natural', 'Soprole', yogures, 300);

  await observe(pool, 5, noon(p), [p1, p2, p3]);
  await observe(pool, 7, noon(p), [a1, a2, a3]);
  await observe(pool, 9, noon(p), [item('e1', 'Leche entera', 'Colun', leches, 4)]);
  await observe(pool, 5, noon(e), [p1, { ...p2, stockOut: true }, p3, p4]);
  await observe(pool, 7, noon(e), [a1, { ...a2, stockOut: true }]);
  await observe(pool, 5, noon(base), [p1, p2, p4]);
  await observe(pool, 7, noon(base), [
    { ...a1, normalPrice: 1200 },
    { ...a2, stockOut: true },
  ]);

  const brand = async (n: string) =>
    (await pool.query<{ id: number }>('select id from brands where name = $1', [n])).rows[0].id;
  const brands = { colun: await brand('Colun'), soprole: await brand('Soprole') };
  const analystOrg = await insertOrgWithLicense(pool, {
    orgName: 'Surtido',
    sellers: [7, 9],
    pivots: [5],
    currencies: ['CLP', 'USD'],
    modules: ['assortment', 'dpm'],
    brands: [brands.colun],
  });
  const noModuleOrg = await insertOrgWithLicense(pool, {
    orgName: 'Sin surtido',
    sellers: [7, 9],
    pivots: [5],
    currencies: ['CLP'],
    modules: ['dpm'],
  });
  const user = (orgId: number, email: string) => insertUser(pool, orgId, email);
  return {
    days: { p, e, base, from: addDays(base, -3), previousFrom: addDays(base, -7) },
    classes: { lacteos, leches, yogures, limpieza },
    brands,
    users: {
      analyst: await user(analystOrg.orgId, 'surtido@example.com'),
      orgAnalyst: analystOrg.orgId,
      noModule: await user(noModuleOrg.orgId, 'sin-surtido@example.com'),
      orgNoModule: noModuleOrg.orgId,
    },
  };
}

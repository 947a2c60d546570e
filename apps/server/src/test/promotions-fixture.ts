import type pg from 'pg';
import type { Observation } from '../modules/ingest/index.js';
import {
  insertClassification,
  insertFxRate,
  insertOrgWithLicense,
  insertSeller,
  insertUser,
  observe,
  seedReferenceData,
} from './fixtures.js';

// The hand-computed promotions fixture (docs/metrics.md "Promotions", worked example). One full run per
// seller and day at 12:00Z (09:00 in Santiago) from Monday 2026-11-02 to Wednesday 2026-11-11; every
// expectation of promotions.test.ts is worked out from the table below.
//
// Classifications: Alimentos > Leches, Alimentos > Yogures; Limpieza > Detergentes.
// Sellers: 5 Pivote (pivot, CLP), 7 Rival (CLP), 9 Rival Perú (PEN, 250 CLP per PEN), 10 Fuera (unlicensed).
//
//  listing  seller class    normal  promotion                         days on promotion
//  L1       5      Leches   1000    SALE 800                          02 03 04
//  L2       5      Leches   1000    EXCLUSIVE 900                     06 07 08 09 10
//  L3       5      Leches   1000    BYQUANTITY 700 (x2)               09 10 11 (running)
//  L4       5      Leches   1000    —                                 —
//  Y1       5      Yogures   500    SALE 400                          02 … 11 (running)
//  R1       7      Leches   1100    SALE 990                          02 … 11 (running)
//  R2       7      Leches   1100    SALE 550 on 05; unpublished 08 09, back 10 at its normal price
//  P1       9      Leches   4 PEN   SALE 3 PEN (= 1000 / 750 CLP)     02 … 11 (running)
//  F1       10     Leches   1000    SALE 500                          02 … 11
export const DAYS = Array.from({ length: 10 }, (_, i) => `2026-11-${String(i + 2).padStart(2, '0')}`);

export interface PromotionsFixture {
  classes: { alimentos: number; leches: number; yogures: number; limpieza: number; detergentes: number };
  users: {
    analyst: number;
    orgAnalyst: number;
    noModule: number;
    orgNoModule: number;
    food: number;
    orgFood: number;
  };
}

const on = (day: string, days: string[]) => days.includes(day);

export async function seedPromotionsFixture(pool: pg.Pool): Promise<PromotionsFixture> {
  await seedReferenceData(pool);
  await insertSeller(pool, { id: 5, name: 'Pivote', color: '#6a1b9a' });
  await insertSeller(pool, { id: 7, name: 'Rival', color: '#1565c0' });
  await insertSeller(pool, { id: 9, name: 'Rival Perú', country: 'PE', currency: 'PEN', color: '#ef6c00' });
  await insertSeller(pool, { id: 10, name: 'Fuera', color: '#000000' });
  await insertFxRate(pool, 'PEN', '2026-10-01', 250);
  await insertFxRate(pool, 'USD', '2026-10-01', 1000);
  const alimentos = await insertClassification(pool, 'Alimentos');
  const leches = await insertClassification(pool, 'Leches', alimentos);
  const yogures = await insertClassification(pool, 'Yogures', alimentos);
  const limpieza = await insertClassification(pool, 'Limpieza');
  const detergentes = await insertClassification(pool, 'Detergentes', limpieza);

  const o = (productId: string, classificationId: number, p: Partial<Observation>): Observation => ({
    productId,
    name: `Producto ${productId}`,
    brand: 'Marca',
    classificationId,
    normalPrice: 1000,
    ...p,
  });
  for (const day of DAYS) {
    const at = `${day}T12:00:00Z`;
    await observe(pool, 5, at, [
      o('L1', leches, on(day, DAYS.slice(0, 3)) ? { salePrice: 800 } : {}),
      o('L2', leches, on(day, DAYS.slice(4, 9)) ? { exclusivePrice: 900 } : {}),
      o('L3', leches, on(day, DAYS.slice(7)) ? { byquantityPrice: 700, byquantityQty: 2 } : {}),
      o('L4', leches, {}),
      o('Y1', yogures, { normalPrice: 500, salePrice: 400 }),
      o('D1', detergentes, { normalPrice: 3000 }),
    ]);
    const r2 = on(day, ['2026-11-08', '2026-11-09'])
      ? []
      : [o('R2', leches, { normalPrice: 1100, ...(day === '2026-11-05' ? { salePrice: 550 } : {}) })];
    await observe(pool, 7, at, [o('R1', leches, { normalPrice: 1100, salePrice: 990 }), ...r2]);
    await observe(pool, 9, at, [o('P1', leches, { normalPrice: 4, salePrice: 3 })]);
    await observe(pool, 10, at, [o('F1', leches, { salePrice: 500 })]);
  }

  const org = (name: string, modules: string[], classifications: number[] = []) =>
    insertOrgWithLicense(pool, {
      orgName: name,
      sellers: [7, 9],
      pivots: [5],
      currencies: ['CLP', 'PEN'],
      modules,
      classifications,
    });
  const analystOrg = await org('Analista', ['promotions', 'dpm']);
  const noModuleOrg = await org('Sin promociones', ['dpm', 'reports']);
  const foodOrg = await org('Solo alimentos', ['promotions'], [alimentos]);
  const user = (orgId: number, email: string) => insertUser(pool, orgId, email);
  return {
    classes: { alimentos, leches, yogures, limpieza, detergentes },
    users: {
      analyst: await user(analystOrg.orgId, 'analista@example.com'),
      orgAnalyst: analystOrg.orgId,
      noModule: await user(noModuleOrg.orgId, 'sinpromo@example.com'),
      orgNoModule: noModuleOrg.orgId,
      food: await user(foodOrg.orgId, 'alimentos@example.com'),
      orgFood: foodOrg.orgId,
    },
  };
}

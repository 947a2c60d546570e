import { readFileSync } from 'node:fs';
import {
  DISCOUNT_BUCKET,
  discountBucket,
  discountPercent,
  discountPercentOrNaN,
  foldText,
  lastSeenAt,
  normalizeSearch,
  promotionPrice,
  SEARCH_FOLD_FROM,
  SEARCH_FOLD_TO,
} from '@vigia/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { createTestDatabase } from '../test/context.js';
import { loadFx, selectRates } from './index.js';

// One definition per formula (docs/metrics.md): where SQL must compute a formula it calls the function of
// migrations/050_market_formulas.sql; these tests run that function and its TypeScript twin on the same
// hand-computed fixtures and require the same answers.

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.close();
});

/** Runs `expr` (with $1, $2, … typed in it) once per fixture row, in one statement. */
async function sqlEach<T>(expr: string, args: unknown[][]): Promise<T[]> {
  const out: T[] = [];
  for (const a of args) {
    const { rows } = await db.pool.query<{ v: T }>(`select ${expr} as v`, a);
    out.push(rows[0].v);
  }
  return out;
}

/**
 * Runs a two-argument formula as SQL (`sqlExpr` over $1, $2) and as TypeScript on each (a, b, expected)
 * fixture and requires both to give the expected value (null, or within 1e-9).
 */
async function sameAnswers(
  sqlExpr: string,
  ts: (a: number | null, b: number | null) => number | null,
  fixtures: [number | null, number | null, number | null][],
) {
  const sql = await sqlEach<number | null>(
    sqlExpr,
    fixtures.map(([a, b]) => [a, b]),
  );
  fixtures.forEach(([a, b, want], i) => {
    const answers = [ts(a, b), sql[i]];
    for (const got of answers) {
      if (want === null) expect(got).toBeNull();
      else expect(got).toBeCloseTo(want, 9);
    }
  });
  return sql;
}

describe('discount % and its bucket', () => {
  // normal, promo → 100 × (normal − promo) / normal, worked out by hand; null unless 0 < promo < normal
  const fixtures: [number | null, number | null, number | null][] = [
    [1000, 800, 20],
    [1000, 775, 22.5],
    [1000, 776, 22.4],
    [1000, 875, 12.5],
    [990, 792, 20],
    [19990, 14990, 25.012506253126563],
    [1000, 1000, null],
    [1000, 1200, null],
    [1000, 0, null],
    [0, 10, null],
    [null, 800, null],
    [1000, null, null],
  ];

  it('TypeScript discountPercent = SQL vigia_discount_pct = the hand-computed value', async () => {
    await sameAnswers('vigia_discount_pct($1::numeric, $2::numeric)', discountPercent, fixtures);
  });

  it("discountPercentOrNaN (the hot loops' form) is the hand-computed value, NaN where it has none", () => {
    for (const [normal, promo, expected] of fixtures) {
      if (normal === null || promo === null) continue;
      const d = discountPercentOrNaN(normal, promo);
      if (expected === null) expect(d).toBeNaN();
      else expect(d).toBe(expected);
    }
  });

  it('TypeScript promotionPrice = SQL vigia_promo_price: a promotion priced at 0 (or below) has none', async () => {
    // promo → the price an average counts
    const cases: [number | null, number | null][] = [
      [800, 800],
      [0.01, 0.01],
      [0, null],
      [-5, null],
      [null, null],
    ];
    const sql = await sqlEach<string | null>(
      'vigia_promo_price($1::numeric)',
      cases.map(([p]) => [p]),
    );
    expect(sql.map((v) => (v === null ? null : Number(v)))).toEqual(cases.map(([, want]) => want));
    expect(cases.map(([p]) => promotionPrice(p))).toEqual(cases.map(([, want]) => want));
  });

  it('TypeScript discountBucket = SQL vigia_discount_bucket (halves go up: 12.5 → 15, 22.5 → 25)', async () => {
    const pcts = [0.1, 2.4, 2.5, 12.5, 20, 22.4, 22.5, 22.6, 25.012506253126563, 97.5];
    const want = [0, 0, 5, 15, 20, 20, 25, 25, 25, 100];
    const sql = await sqlEach<number>(
      'vigia_discount_bucket($1::numeric)',
      pcts.map((p) => [p]),
    );
    expect(pcts.map(discountBucket)).toEqual(want);
    expect(sql).toEqual(want);
    expect(DISCOUNT_BUCKET).toBe(5);
  });
});

describe('last seen', () => {
  const t = (iso: string) => Date.parse(iso);
  const fixtures: [boolean, string, string | null, string][] = [
    [true, '2026-11-10T10:00:00Z', '2026-11-11T09:00:00Z', '2026-11-11T09:00:00Z'], // crawl after: the crawl
    [true, '2026-11-10T10:00:00Z', '2026-11-09T09:00:00Z', '2026-11-10T10:00:00Z'], // crawl before: its own
    [true, '2026-11-10T10:00:00Z', null, '2026-11-10T10:00:00Z'], // never crawled
    [false, '2026-11-10T10:00:00Z', '2026-11-11T09:00:00Z', '2026-11-10T10:00:00Z'], // unpublished: its own
  ];
  it('TypeScript lastSeenAt = SQL vigia_last_seen', async () => {
    const sql = await sqlEach<Date>(
      'vigia_last_seen($1::boolean, $2::timestamptz, $3::timestamptz)',
      fixtures.map(([p, l, c]) => [p, l, c]),
    );
    fixtures.forEach(([published, last, crawl, want], i) => {
      expect(lastSeenAt(published, t(last), crawl === null ? null : t(crawl))).toBe(t(want));
      expect(sql[i].getTime()).toBe(t(want));
    });
  });
});

describe('search normalisation', () => {
  const texts = [
    'Café con Leche',
    'pingüino ÑANDÚ',
    'árbol  niño   camión',
    'crème brûlée à la française',
    'São Paulo',
    'Vino Tinto 750ML',
    '',
  ];
  it('foldText folds case and accents', () => {
    expect(texts.map(foldText)).toEqual([
      'cafe con leche',
      'pinguino nandu',
      'arbol  nino   camion',
      'creme brulee a la francaise',
      'sao paulo',
      'vino tinto 750ml',
      '',
    ]);
  });

  it('the stored keys of migration 031 fold with the same letters as the domain', () => {
    const m031 = readFileSync(new URL('../../migrations/031_search_keys.sql', import.meta.url), 'utf8');
    const lists = [...m031.matchAll(/'([^']+)', '([^']+)'\)/g)].map((m) => [m[1], m[2]]);
    expect(lists.length).toBe(3);
    for (const [from, to] of lists) expect([from, to]).toEqual([SEARCH_FOLD_FROM, SEARCH_FOLD_TO]);
  });

  it('the words of a query are the folded text split on spaces, at most 10', () => {
    expect(normalizeSearch('  Café   con LECHE ')).toEqual(['cafe', 'con', 'leche']);
    expect(normalizeSearch('a b c d e f g h i j k l')).toHaveLength(10);
  });
});

describe('exchange rates (vigia_fx_rates_on)', () => {
  beforeAll(async () => {
    await db.pool.query(`insert into currencies (acronym, name, decimals) values
      ('CLP', 'Peso chileno', 0), ('USD', 'Dólar', 2), ('PEN', 'Sol', 2) on conflict do nothing`);
    await db.pool.query(`insert into fx_rates (currency, day, clp_per_unit) values
      ('USD', '2026-11-01', 900), ('USD', '2026-11-05', 950), ('PEN', '2026-11-03', 250)`);
  });

  it('the latest rate on or before the day, converted through CLP', async () => {
    // on 11-04: USD 900 (11-01), PEN 250 (11-03) → 1 USD = 900 / 250 = 3.6 PEN
    const pen = await selectRates(db.pool, 'PEN', '2026-11-04');
    expect(pen?.get('USD')).toBeCloseTo(3.6, 12);
    expect(pen?.get('CLP')).toBeCloseTo(1 / 250, 12);
    // on 11-05 the new USD rate applies: 950 / 250 = 3.8
    expect((await selectRates(db.pool, 'PEN', '2026-11-05'))?.get('USD')).toBeCloseTo(3.8, 12);
    // before any PEN rate: no factor to PEN
    expect(await selectRates(db.pool, 'PEN', '2026-11-02')).toBeNull();
  });

  it('loadFx looks up day by day with the same rule', async () => {
    const fx = await loadFx(db.pool, ['USD', 'PEN'], '2026-11-02', '2026-11-06');
    expect(fx.rate('USD', '2026-11-02')).toBe(900); // the rate before the range
    expect(fx.rate('USD', '2026-11-05')).toBe(950);
    expect(fx.rate('PEN', '2026-11-02')).toBeNull();
    expect(fx.convert(10, 'USD', 'PEN', '2026-11-04')).toBe(36); // 10 × 900 / 250
    expect(fx.convert(10, 'USD', 'CLP', '2026-11-06')).toBe(9500);
  });
});

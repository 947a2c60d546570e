import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// One number, one definition (issue 25; docs/metrics.md "One implementation per formula"): each formula
// has one home, and a second definition is refused here. For every formula, the patterns that write it
// out again (a re-implementation) may appear in its home only; anywhere else — server, web, domain, and
// any migration newer than this check — the test fails and names the file and line. Tests are not
// scanned: they write hand-computed values, and reference oracles (src/test/) call the homes.

const ROOT = new URL('..', import.meta.url).pathname;
const SOURCES = ['apps/server/src', 'apps/web/src', 'packages/domain/src'];
/** Migrations up to this number are history (applied once, never run again); newer ones are scanned. */
const LAST_HISTORIC_MIGRATION = 231;

interface Formula {
  name: string;
  /** Files (relative to the repository) allowed to write the formula out. */
  homes: string[];
  /** Patterns of a re-implementation. */
  patterns: RegExp[];
}

const FORMULAS: Formula[] = [
  {
    name: 'discount % (domain discountPercent, SQL vigia_discount_pct)',
    homes: ['packages/domain/src/derived.ts', 'apps/server/migrations/050_market_formulas.sql'],
    patterns: [
      /\(\s*[\w.]*normal\w*\s*-\s*[\w.]+\s*\)\s*\/\s*[\w.]*normal/i,
      /1\s*-\s*[\w.]*promo\w*\s*\/\s*[\w.]*normal/i,
      /[\w.]*promo\w*\s*<\s*[\w.]*normal\w*\s*(then|\?)/i,
    ],
  },
  {
    name: 'promotion price of an aggregate (domain promotionPrice, SQL vigia_promo_price: > 0)',
    homes: [
      'packages/domain/src/derived.ts',
      'apps/server/migrations/050_market_formulas.sql',
      'apps/server/migrations/310_promotion_price_needs_positive.sql',
    ],
    patterns: [/\bpromo\w*\s*>\s*0\b/i, /\bpromo\w*\s*<=\s*0\b/i],
  },
  {
    name: 'rate in force (SQL vigia_fx_rates_on, market/fx.ts)',
    homes: ['apps/server/migrations/050_market_formulas.sql'],
    patterns: [/distinct on\s*\(\s*(\w+\.)?currency\s*\)/i],
  },
  {
    name: 'rounding of answers (domain round2)',
    homes: ['packages/domain/src/derived.ts'],
    patterns: [
      /Math\.round\(\s*[\w.]+\s*\*\s*100\s*\)\s*\/\s*100\b/,
      /Math\.round\(\s*\(?\s*10_?000\s*\*/,
      // an expression rounded to cents: Math.round((a - b) * 100) / 100
      /Math\.round\(\s*\([^()]*\)\s*\*\s*100\s*\)\s*\/\s*100\b/,
    ],
  },
  {
    name: 'share % (domain share)',
    homes: ['packages/domain/src/metrics/pricing.ts'],
    patterns: [/\(\s*100\s*\*\s*[\w.]+\s*\)\s*\/\s*\(?\s*[\w.]+/],
  },
  {
    name: 'price index (domain priceIndex)',
    homes: ['packages/domain/src/metrics/pricing.ts'],
    patterns: [/100\s*\*\s*[\w.]*(my|mine)\w*\s*\)?\s*\/\s*[\w.]*(best|min|lowest)\w*/i],
  },
  {
    name: 'price variation (domain priceVariationValue; periodChange its other sign)',
    homes: ['packages/domain/src/derived.ts'],
    patterns: [
      /100\s*\*\s*\(\s*1\s*-\s*[\w.]+\s*\/\s*[\w.]+\s*\)/,
      /100\s*\*\s*\(\s*[\w.]+\s*-\s*[\w.]+\s*\)\s*\)?\s*\/\s*[\w.]*prev/i,
    ],
  },
  {
    name: 'tie tolerance (domain INDEX_EPSILON / samePrice / isCheaper)',
    homes: ['packages/domain/src/metrics/pricing.ts', 'packages/domain/src/derived.ts'],
    patterns: [/\b1e-9\b/],
  },
  {
    name: 'period resolution (market core resolvePeriod)',
    homes: ['apps/server/src/market/days.ts'],
    patterns: [/posterior a hoy'/, /el período no puede superar/],
  },
  {
    name: 'search folding (domain foldText)',
    homes: ['packages/domain/src/search.ts'],
    patterns: [/normalize\(\s*'NF[DK]*'\s*\)\s*\.replace/, /\.replace\(FOLDABLE/, /translate\(\s*lower\(/i],
  },
  {
    name: 'day of an instant / start of a day (SQL vigia_day, vigia_day_start; domain isoDateInZone)',
    homes: ['apps/server/migrations/232_market_zone.sql'],
    patterns: [/\bat time zone\b/i],
  },
  {
    name: 'zone literal (configuration: domain DEFAULT_TIMEZONE; organisations.market_zone, users.timezone)',
    homes: [
      'packages/domain/src/constants.ts',
      // the column's default (the setting's default value)
      'apps/server/migrations/232_market_zone.sql',
      // the zone of the roll-up rows and cached figures written before zones were kept (that default)
      'apps/server/migrations/431_rollup_zones.sql',
      'apps/server/migrations/432_promo_days_per_zone.sql',
      // and the promotions written before (470 also marks every other zone to be built again)
      'apps/server/migrations/470_promotions_per_zone.sql',
      'apps/server/migrations/480_assortment_zones.sql',
      // the image checks stored before 481 have days of the deployment's zone (their instants' backfill)
      'apps/server/migrations/481_image_checks_at_their_instant.sql',
      // the deployment's zone is zone id 1, the Surtido spans' default (those written before 490)
      'apps/server/migrations/490_assortment_spans_compact.sql',
    ],
    patterns: [/'America\/[A-Za-z_]+'/],
  },
];

/** Files that write a formula for another reason (named, with the reason). */
const KNOWN: Record<string, string[]> = {
  // the demo generator strips accents to build e-mail-like slugs of its fake names, not to search
  'apps/server/src/modules/demo/generator.ts': ['search folding'],
  // the demo (its generated history is Chilean) and the test fixtures (scanned: not *.test.ts)
  'apps/server/src/modules/demo/dates.ts': ['zone literal'],
  'apps/server/src/modules/demo/seed-demo.ts': ['zone literal', 'day of an instant'],
  // the price history report writes times (not days) as wall-clock text of the user's zone
  'apps/server/src/modules/reports/queries.ts': ['day of an instant'],
  // the backfill of migration 100 (history: the statement the migration ran, read back by its check)
  'apps/server/src/db/migrate.ts': ['day of an instant'],
  'apps/server/src/test/assortment-fixture.ts': ['zone literal'],
  'apps/server/src/test/reports-fixture.ts': ['zone literal'],
  'apps/server/src/test/test-market.ts': ['zone literal'],
  'apps/server/src/test/assortment-history.ts': ['zone literal'],
  // the list of zones a user (profile) or an administrator (Operaciones) may pick: options, not a day rule
  'apps/web/src/lib/timezones.ts': ['zone literal'],
  // migration 050 created vigia_price_index and vigia_fold; migration 231 dropped them (never called)
  'apps/server/migrations/050_market_formulas.sql': ['price index', 'search folding'],
};

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name === 'node_modules' || name === 'dist') continue;
      yield* files(p);
    } else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name)) yield p;
  }
}

function sources(): { path: string; lines: string[] }[] {
  const out: { path: string; lines: string[] }[] = [];
  for (const dir of SOURCES)
    for (const p of files(join(ROOT, dir)))
      out.push({ path: relative(ROOT, p), lines: readFileSync(p, 'utf8').split('\n') });
  const migrations = join(ROOT, 'apps/server/migrations');
  for (const name of readdirSync(migrations)) {
    const n = Number.parseInt(name, 10);
    if (!name.endsWith('.sql') || (n <= LAST_HISTORIC_MIGRATION && !name.startsWith('050_'))) continue;
    out.push({
      path: `apps/server/migrations/${name}`,
      lines: readFileSync(join(migrations, name), 'utf8').split('\n'),
    });
  }
  return out;
}

/** A comment line (TypeScript or SQL): prose may name a formula. */
const isComment = (line: string) => /^\s*(\/\/|\*|\/\*\*?|--)/.test(line);

function secondDefinitions(
  all: { path: string; lines: string[] }[],
  formulas: Formula[] = FORMULAS,
): string[] {
  const found: string[] = [];
  for (const f of formulas)
    for (const file of all) {
      if (f.homes.includes(file.path)) continue;
      if (KNOWN[file.path]?.some((k) => f.name.startsWith(k))) continue;
      file.lines.forEach((line, i) => {
        if (isComment(line)) return;
        if (f.patterns.some((p) => p.test(line)))
          found.push(`${f.name}: ${file.path}:${i + 1}: ${line.trim()}`);
      });
    }
  return found;
}

describe('one definition per formula', () => {
  const all = sources();

  it('reads the real sources', () => {
    expect(all.length).toBeGreaterThan(200);
    expect(all.some((f) => f.path === 'packages/domain/src/derived.ts')).toBe(true);
  });

  it('each formula is written out in its home only', () => {
    expect(secondDefinitions(all)).toEqual([]);
  });

  it('each home does hold its formula (the patterns are not stale)', () => {
    for (const f of FORMULAS) {
      const homes = all.filter((x) => f.homes.includes(x.path));
      const hit = homes.some((h) => h.lines.some((l) => !isComment(l) && f.patterns.some((p) => p.test(l))));
      expect(hit, f.name).toBe(true);
    }
  });

  it('refuses the copies this issue removed', () => {
    const copy = (path: string, line: string) => secondDefinitions([{ path, lines: [line] }]);
    // promotions/rollup.ts's DISC, notifications' discountOf, the reports builder
    expect(
      copy(
        'apps/server/src/modules/promotions/rollup.ts',
        'then 100 * (v.normal_price - v.promo_price) / v.normal_price end',
      ),
    ).toHaveLength(1);
    expect(
      copy(
        'apps/server/src/modules/notifications/rules.ts',
        '  return ((s.normal - s.price) / s.normal) * 100;',
      ),
    ).toHaveLength(1);
    expect(copy('apps/server/src/modules/x.ts', 'const d = 1 - promo / normal;')).toHaveLength(1);
    expect(
      copy('apps/server/src/modules/x.ts', 'r.normal_price > 0 && r.promo_price < r.normal_price ? x : null'),
    ).toHaveLength(1);
    expect(
      copy('apps/server/src/modules/x.ts', 'case when normal > 0 and promo < normal then 1 end'),
    ).toHaveLength(1);
    // promotions' inline rate in force
    expect(
      copy(
        'apps/server/src/modules/promotions/queries.ts',
        'from (select distinct on (currency) currency, clp',
      ),
    ).toHaveLength(1);
    // the seven round2
    expect(
      copy(
        'apps/server/src/modules/assortment/service.ts',
        'const round2 = (v) => Math.round(v * 100) / 100;',
      ),
    ).toHaveLength(1);
    // the detail's difference rounded on its own
    expect(
      copy(
        'apps/server/src/modules/detail/service.ts',
        '          ? Math.round((x.min_price - pivotItem.min_price) * 100) / 100',
      ),
    ).toHaveLength(1);
    // promotions' pct
    expect(
      copy(
        'apps/server/src/modules/promotions/service.ts',
        '(den > 0 ? Math.round((10_000 * num) / den) / 100 : null)',
      ),
    ).toHaveLength(1);
    expect(copy('apps/web/src/x.tsx', 'const s = formatPercent((100 * part) / total);')).toHaveLength(1);
    // assortment's old variation, matching's own folding, a rank with its own tolerance
    expect(
      copy(
        'apps/server/src/modules/assortment/service.ts',
        'return (100 * (current - previous)) / previous;',
      ),
    ).toHaveLength(1);
    expect(
      copy(
        'apps/server/src/modules/ingest/matching.ts',
        ".normalize('NFD').replace(/[\\u0300-\\u036f]/g, '')",
      ),
    ).toHaveLength(1);
    expect(
      copy(
        'apps/server/src/modules/notifications/rules.ts',
        'if (Math.abs(o - price) <= 1e-9 * price) continue;',
      ),
    ).toHaveLength(1);
    // an average of promotion prices with its own rule
    expect(
      copy(
        'apps/server/src/modules/promotions/queries.ts',
        'sum(case when sp.promo_price > 0 then sp.promo_price end)',
      ),
    ).toHaveLength(1);
    // a day's start or an instant's day written out instead of vigia_day_start / vigia_day
    expect(
      copy(
        'apps/server/src/modules/dashboard/queries.ts',
        'x.valid_from < (($1::date + 1)::timestamp at time zone $2)',
      ),
    ).toHaveLength(1);
    // a zone written into a statement (and the day rule written out with it)
    expect(
      copy('apps/server/src/modules/x.ts', "select (t at time zone 'America/Santiago')::date"),
    ).toHaveLength(2);
    expect(copy('apps/server/src/modules/x.ts', "select vigia_day(t, 'America/Santiago')")).toHaveLength(1);
    // a comment may name the formula
    expect(
      copy('apps/server/src/modules/x.ts', '// 100 × (normal − promo) / normal: (normal - promo) / normal'),
    ).toHaveLength(0);
  });
});

// The DuckDB side of issue 30's comparison (duckdb.ts): the CSV export of PostgreSQL read back by
// DuckDB keeps hostile texts, NULLs and types intact; and the DPM SQL over raw tables gives the
// hand-computed numbers of docs/metrics.md "Worked example" (the API's pricing fixture).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { isoDateInZone, round2 } from '@vigia/domain';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { spikeFlags } from '../../apps/server/src/modules/promotions/service.js';
// the test server's URLs (`inject`), provided by the server's global set-up (vitest.config.ts)
import type {} from '../../apps/server/src/test/global-setup.js';
import {
  assortmentDiff,
  copyToCsv,
  dashboardDaysSql,
  dpmSellersDiff,
  dpmSellersSql,
  dpmSql,
  type Market,
  RAW_TABLES,
  readCsvSql,
  spikeSql,
  tallyDiff,
} from './duckdb.js';

const rowsOf = async (db: DuckDBConnection, sql: string) =>
  (await db.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];

/** A new in-memory DuckDB with the raw tables, empty. */
async function emptyRawTables(): Promise<DuckDBConnection> {
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  for (const t of RAW_TABLES)
    await db.run(
      `create table ${t.name} (${Object.entries(t.columns)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')})`,
    );
  return db;
}

describe('CSV export (COPY … TO STDOUT) read by DuckDB', () => {
  let client: pg.Client;
  let dir: string;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: inject('pgAppUrl') });
    await client.connect();
    await client.query(`set timezone = 'UTC'`);
    dir = mkdtempSync(join(tmpdir(), 'vigia-duckdb-test-'));
  });
  afterAll(async () => {
    await client.end();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps commas, quotes, newlines, empty strings, NULLs, timestamps, booleans and cents', async () => {
    const names = [
      'Leche, entera',
      'Televisor 55" "Smart"',
      'línea 1\nlínea 2\r\nlínea 3',
      '',
      null,
      'Ñandú 100% _algodón_ \\ barra',
      '"',
      ',',
    ];
    const file = join(dir, 'hostile.csv');
    await client.query('create temp table hostile (id bigint, name text)');
    for (const [i, n] of names.entries())
      await client.query('insert into hostile values ($1, $2)', [i + 1, n]);
    const select = `select id, name, id % 2 = 0 as published,
                           timestamptz '2026-11-28 07:27:00.123456+00' + id * interval '1 hour' as seen,
                           (1234.5 + id)::numeric(14,2) as price
                      from hostile`;
    const bytes = await copyToCsv(client, select, file);
    expect(bytes).toBeGreaterThan(0);
    const db = await (await DuckDBInstance.create(':memory:')).connect();
    const got = await rowsOf(
      db,
      `${readCsvSql(file, { id: 'BIGINT', name: 'VARCHAR', published: 'BOOLEAN', seen: 'TIMESTAMPTZ', price: 'DECIMAL(14,2)' })} order by id`,
    );
    expect(got.map((r) => r.name)).toEqual(names);
    expect(got.map((r) => r.published)).toEqual(names.map((_, i) => (i + 1) % 2 === 0));
    const seen = await rowsOf(
      db,
      `select strftime(seen, '%Y-%m-%d %H:%M:%S.%f') as s, price::varchar as p
         from (${readCsvSql(file, { id: 'BIGINT', name: 'VARCHAR', published: 'BOOLEAN', seen: 'TIMESTAMPTZ', price: 'DECIMAL(14,2)' })}) order by id limit 2`,
    );
    expect(seen).toEqual([
      { s: '2026-11-28 08:27:00.123456', p: '1235.50' },
      { s: '2026-11-28 09:27:00.123456', p: '1236.50' },
    ]);
    db.closeSync();
  });

  it('a failed statement rejects and leaves the connection usable', async () => {
    await expect(copyToCsv(client, 'select * from no_such_table', join(dir, 'x.csv'))).rejects.toThrow(
      /no_such_table/,
    );
    expect((await client.query('select 1 as one')).rows[0].one).toBe(1);
  });
});

describe('DPM KPIs from raw tables (docs/metrics.md "Worked example")', () => {
  let db: DuckDBConnection;
  const now = Date.now();
  const t1 = new Date(now - 60_000).toISOString();
  const t0 = new Date(now - 60_000 - 9 * 86_400_000).toISOString();
  const day = (iso: string) => iso.slice(0, 10);
  const market: Market = { license: 1, zone: 'America/Santiago', licensed: [7, 8, 9], roots: [] };

  beforeAll(async () => {
    db = await emptyRawTables();
    await db.run(`insert into fx_rates values ('PEN', date '${day(new Date(now - 70 * 86_400_000).toISOString())}', 250),
                   ('PEN', date '${day(t0)}', 260), ('USD', date '${day(t0)}', 900)`);
    await db.run(`insert into brands values (1, 'Colun'), (2, 'Soprole'), (3, 'Omo')`);
    // id, seller, brand, published, group (EAN), normal, sale, exclusive, price type, stock out, currency, seen at
    const listings: [
      number,
      number,
      number | null,
      boolean,
      number | null,
      number,
      number | null,
      number | null,
      string,
      boolean,
      string,
      string,
    ][] = [
      [1, 5, 1, true, 1, 1000, null, null, 'NORMAL', false, 'CLP', t1],
      [2, 5, 1, true, 2, 900, 850, null, 'SALE', false, 'CLP', t1],
      [3, 5, 2, true, 3, 500, null, 400, 'EXCLUSIVE', false, 'CLP', t1],
      [4, 5, 3, true, 4, 10000, null, null, 'NORMAL', true, 'CLP', t1],
      [5, 5, 3, true, null, 5000, null, null, 'NORMAL', false, 'CLP', t1],
      [6, 5, 1, true, 6, 800, null, null, 'NORMAL', false, 'CLP', t1],
      [11, 7, null, true, 1, 1000, null, null, 'NORMAL', false, 'CLP', t1],
      [12, 7, null, true, 2, 900, null, null, 'NORMAL', false, 'CLP', t1],
      [13, 7, null, true, 3, 450, null, null, 'NORMAL', false, 'CLP', t1],
      [14, 7, null, true, 4, 9000, null, null, 'NORMAL', false, 'CLP', t1],
      [15, 7, null, true, null, 5200, null, null, 'NORMAL', false, 'CLP', t1],
      [21, 8, null, true, 1, 1100, 950, null, 'SALE', false, 'CLP', t1],
      [22, 8, null, true, 2, 700, null, null, 'NORMAL', true, 'CLP', t1],
      [24, 8, null, true, 4, 9500, null, null, 'NORMAL', false, 'CLP', t1],
      [26, 8, null, false, 6, 780, null, null, 'NORMAL', false, 'CLP', t0], // seen at T0 only
      [31, 9, null, true, 1, 4, null, null, 'NORMAL', false, 'PEN', t1],
      [41, 10, null, true, 1, 10, null, null, 'NORMAL', false, 'CLP', t1], // outside the license
    ];
    const v = (x: unknown) => (x === null ? 'null' : typeof x === 'string' ? `'${x}'` : String(x));
    for (const [id, seller, brand, published, group, n, s, e, type, out, cur, seen] of listings) {
      await db.run(`insert into products (id, seller_id, product_id, brand_id, first_seen, last_seen, published)
                    values (${id}, ${seller}, 'p${id}', ${v(brand)}, '${seen}', '${seen}', ${published})`);
      // an unpublished listing's last interval ended when it was unpublished
      const to = published ? 'null' : `'${t1}'`;
      await db.run(`insert into price_intervals (product_id, valid_from, valid_to, normal_price, sale_price,
                      exclusive_price, price_type, stock_out, currency)
                    values (${id}, '${seen}', ${to}, ${n}, ${v(s)}, ${v(e)}, '${type}', ${out}, '${cur}')`);
      if (group !== null) await db.run(`insert into match_members values (${group}, ${id}, 'confirmed')`);
    }
    // P1 was on sale at 900 before T1: its state is its latest interval, whose sale price is none (an
    // aggregate that skips NULLs would take the older 900)
    await db.run(`insert into price_intervals (product_id, valid_from, valid_to, normal_price, sale_price,
                    price_type, stock_out, currency) values (1, '${t0}', '${t1}', 1000, 900, 'SALE', false, 'CLP')`);
  });
  afterAll(() => db.closeSync());

  const q = { pivot: 5, currency: 'CLP', mpiValue: 10 };

  it('KPIs and split: total 6, match 4, publishedMatch 4, 2 cheapest, 1 in range, 1 dearer, average 99.93', async () => {
    const [r] = await rowsOf(db, dpmSql(market, q, day(t1), 'all'));
    const tally = Object.fromEntries(Object.entries(r).map(([k, x]) => [k, x === null ? null : Number(x)]));
    expect(
      tallyDiff(
        {
          total: 6,
          match: 4,
          publishedMatch: 4,
          normal: 4,
          sale: 1,
          exclusive: 1,
          stock_out: 1,
          cheapest: 2,
          in_range: 1,
          dearer: 1,
          without_index: 2,
          // (105.263 + 94.444 + 88.889 + 111.111) / 4
          average_index: 99.93,
        },
        tally as never,
      ),
    ).toEqual([]);
  });

  it('Rival A alone: match 4 (P1–P4), P2 at 850/900 cheapest, P1 at 1000/1000 cheapest, P4 dearer', async () => {
    const [r] = await rowsOf(db, dpmSql(market, { ...q, competitors: [7] }, day(t1), 'all'));
    expect(Number(r.match)).toBe(4);
    expect(Number(r.cheapest)).toBe(3); // P1 100, P2 94.44, P3 88.89
    expect(Number(r.dearer)).toBe(1); // P4 111.11
    expect(Number(r.average_index)).toBeCloseTo((100 + 94.4444 + 88.8889 + 111.1111) / 4, 3);
  });

  it('by brand: Colun P1, P2, P6 (avg 99.85), Soprole P3 (88.89), Omo P4, P5 (111.11)', async () => {
    const rows = await rowsOf(db, dpmSql(market, q, day(t1), 'brand'));
    const by = new Map(rows.map((r) => [Number(r.id), r]));
    expect([...by.keys()]).toEqual([1, 2, 3]);
    expect(Number(by.get(1)?.total)).toBe(3);
    expect(Number(by.get(1)?.without_index)).toBe(1);
    expect(Number(by.get(1)?.average_index)).toBeCloseTo((105.2632 + 94.4444) / 2, 3);
    expect(Number(by.get(2)?.cheapest)).toBe(1);
    expect(Number(by.get(3)?.stock_out)).toBe(1);
    expect(Number(by.get(3)?.dearer)).toBe(1);
    expect(Number(by.get(3)?.match)).toBe(1);
  });
});

describe('DPM by e-commerce from raw tables (docs/metrics.md "Worked example", dpm/sellers)', () => {
  let db: DuckDBConnection;
  const t1 = new Date(Date.now() - 60_000).toISOString();
  const market: Market = { license: 1, zone: 'America/Santiago', licensed: [7, 8], roots: [] };

  beforeAll(async () => {
    db = await emptyRawTables();
    // pivot 5: P1 1000, P2 sale 850, P3 exclusive 400, P4 10000 (out of stock); Rival A (7): 1000, 900,
    // 450, 9000; Rival B (8): only P2's match, out of stock (matched, no index)
    const listings: [number, number, number, number, number | null, number | null, string, boolean][] = [
      [1, 5, 1, 1000, null, null, 'NORMAL', false],
      [2, 5, 2, 900, 850, null, 'SALE', false],
      [3, 5, 3, 500, null, 400, 'EXCLUSIVE', false],
      [4, 5, 4, 10000, null, null, 'NORMAL', true],
      [11, 7, 1, 1000, null, null, 'NORMAL', false],
      [12, 7, 2, 900, null, null, 'NORMAL', false],
      [13, 7, 3, 450, null, null, 'NORMAL', false],
      [14, 7, 4, 9000, null, null, 'NORMAL', false],
      [22, 8, 2, 700, null, null, 'NORMAL', true],
    ];
    const v = (x: unknown) => (x === null ? 'null' : String(x));
    for (const [id, seller, group, n, s, e, type, out] of listings) {
      await db.run(`insert into products (id, seller_id, product_id, first_seen, last_seen, published)
                    values (${id}, ${seller}, 'p${id}', '${t1}', '${t1}', true)`);
      await db.run(`insert into price_intervals (product_id, valid_from, normal_price, sale_price, exclusive_price,
                      price_type, stock_out, currency)
                    values (${id}, '${t1}', ${n}, ${v(s)}, ${v(e)}, '${type}', ${out}, 'CLP')`);
      await db.run(`insert into match_members values (${group}, ${id}, 'confirmed')`);
    }
  });
  afterAll(() => db.closeSync());

  it('Rival A head to head: common 4, cheaper 2, equal 1, dearer 1, mean difference −1.39 %; Rival B: 1 product, no index', async () => {
    const rows = await rowsOf(
      db,
      dpmSellersSql(market, { pivot: 5, currency: 'CLP', mpiValue: 10 }, t1.slice(0, 10)),
    );
    expect(rows.map((r) => Number(r.id))).toEqual([7, 8]);
    const [a, b] = rows;
    expect(Number(a.total)).toBe(4);
    expect(Number(a.common)).toBe(4);
    expect(Number(a.cheaper)).toBe(2); // P2 850/900, P3 400/450
    expect(Number(a.equal)).toBe(1); // P1 1000/1000
    expect(Number(a.more_expensive)).toBe(1); // P4 10000/9000
    // (0 − 5.556 − 11.111 + 11.111) / 4
    expect(round2(Number(a.average_difference_pct))).toBe(-1.39);
    expect(Number(a.stock_out)).toBe(1);
    expect(Number(a.all_products)).toBe(4);
    expect([Number(b.total), Number(b.common), Number(b.without_index), Number(b.sale)]).toEqual([
      1, 0, 1, 1,
    ]);
    expect(b.average_difference_pct).toBeNull();
    const item = {
      id: 7,
      products: 4,
      match_pct: 100,
      ...{ total: 4, match: 4, publishedMatch: 4, normal: 2, sale: 1, exclusive: 1, stock_out: 1 },
      ...{ cheapest: 3, in_range: 0, dearer: 1, without_index: 0, average_index: 98.61 },
      head_to_head: { common: 4, cheaper: 2, equal: 1, more_expensive: 1, average_difference_pct: -1.39 },
    };
    const itemB = {
      id: 8,
      products: 1,
      match_pct: 25,
      ...{ total: 1, match: 1, publishedMatch: 0, normal: 0, sale: 1, exclusive: 0, stock_out: 0 },
      ...{ cheapest: 0, in_range: 0, dearer: 0, without_index: 1, average_index: null },
      head_to_head: { common: 0, cheaper: 0, equal: 0, more_expensive: 0, average_difference_pct: null },
    };
    expect(dpmSellersDiff({ items: [item, itemB], summary: { products: 4 } }, rows)).toEqual([]);
    const wrong = { ...item, head_to_head: { ...item.head_to_head, equal: 0, cheaper: 3 } };
    expect(dpmSellersDiff({ items: [wrong, itemB], summary: { products: 4 } }, rows)).toHaveLength(1);
  });
});

describe('promotions level spikes in DuckDB SQL = the API spike test', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await (await DuckDBInstance.create(':memory:')).connect();
  });
  afterAll(() => db.closeSync());

  /** The spike flags of each series, all series in one DuckDB statement. */
  const flagsOf = async (series: (number | null)[][]) => {
    const values = series.flatMap((xs, k) =>
      xs.map((x, i) => `(${k}, ${i}, ${x === null ? 'null' : x}::double)`),
    );
    const rows = await rowsOf(
      db,
      `with v(k, i, x) as (values ${values.join(', ')}),
            s as (select k, list_sort(list(x) filter (where x is not null)) as xs from v group by k)
       select v.k, v.i, ${spikeSql('v.x', 's.xs')} as f from v join s using (k) order by v.k, v.i`,
    );
    return series.map((xs, k) => xs.map((_, i) => rows.find((r) => r.k === k && r.i === i)?.f === true));
  };
  const flags = async (xs: (number | null)[]) => (await flagsOf([xs]))[0];

  it('hand-worked: median 11, MAD 1 → threshold 11 + max(3, 4.4478) = 15.4478', async () => {
    expect(await flags([10, 10, 12, 11, 30, null])).toEqual([false, false, false, false, true, false]);
    // even count: median (12 + 13) / 2 = 12.5, deviations 0.5 0.5 1.5 2.5 7.5 17.5 → MAD 2 →
    // 12.5 + 3 × 1.4826 × 2 = 21.3956
    expect(await flags([10, 11, 12, 13, 20, 30])).toEqual([false, false, false, false, false, true]);
    // MAD 0: the 3-point floor, reached exactly (≥)
    expect(await flags([10, 10, 10, 10, 13, 12.99])).toEqual([false, false, false, false, true, false]);
    // fewer than 4 weeks with a value: none
    expect(await flags([0, 0, 90, null])).toEqual([false, false, false, false]);
  });

  it('agrees with spikeFlags on 300 random series (ties, even and odd lengths, nulls)', async () => {
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const series = Array.from({ length: 300 }, () =>
      Array.from({ length: 1 + Math.floor(rnd() * 12) }, () =>
        rnd() < 0.15
          ? null
          : rnd() < 0.3
            ? Math.floor(rnd() * 4) * 5
            : round2(rnd() * (rnd() < 0.1 ? 100 : 20)),
      ),
    );
    const got = await flagsOf(series);
    expect(got.flat().filter(Boolean).length).toBeGreaterThan(10); // spikes do occur
    for (const [k, xs] of series.entries()) expect(got[k], JSON.stringify(xs)).toEqual(spikeFlags(xs));
  });
});

describe('Surtido values compared exactly (DECIMAL sums, domain ConvertedSum)', () => {
  it("DuckDB's DECIMAL sum is exact where doubles are not, and the diff wants the cent", async () => {
    const db = await (await DuckDBInstance.create(':memory:')).connect();
    const [r] = await rowsOf(
      db,
      `select sum(x)::varchar as exact, sum(x::double) as float from
         (select unnest([0.10, 0.20, 0.30, 5000003065.34]::decimal(14,2)[]) as x)`,
    );
    db.closeSync();
    expect(r.exact).toBe('5000003065.94');
    // the seed's rows of the hand-worked case of assortment/service.test.ts: Todos 5.000.019.957,155
    const rows = [
      {
        period: 'cur',
        seller_id: 1,
        published: 1,
        out_of_stock: 0,
        priced: 1,
        value_sum: r.exact,
        rate: '1',
        target_rate: '1',
        went_out: 0,
        back_in: 0,
      },
      {
        period: 'cur',
        seller_id: 2,
        published: 2,
        out_of_stock: 1,
        priced: 2,
        value_sum: '67.43',
        rate: '250.500000',
        target_rate: '1',
        went_out: 1,
        back_in: 0,
      },
      {
        period: 'prev',
        seller_id: 1,
        published: 1,
        out_of_stock: 0,
        priced: 1,
        value_sum: '5000000000.00',
        rate: '1',
        target_rate: '1',
        went_out: 0,
        back_in: 0,
      },
      {
        period: 'prev',
        seller_id: 2,
        published: 2,
        out_of_stock: 0,
        priced: 2,
        value_sum: '60.00',
        rate: '250.000000',
        target_rate: '1',
        went_out: 0,
        back_in: 0,
      },
    ];
    const summary = {
      id: null,
      summary: true,
      total_products: 3,
      previous_total_products: 3,
      products_variation: 0,
      total_value: 5_000_019_957.16,
      previous_total_value: 5_000_015_000,
      total_variation: 0,
      average_value: 1_666_673_319.05,
      previous_average_value: 1_666_671_666.67,
      average_variation: 0,
      participation: 100,
      out_of_stock: 1,
      availability: 66.67,
      went_out_of_stock: 1,
      back_in_stock: 0,
      previous_went_out_of_stock: 0,
      previous_back_in_stock: 0,
    };
    // (5.000.019.957,155 − 5.000.015.000) / 5.000.015.000 = 0,0000991 % → 0 at three decimals
    expect(assortmentDiff({ sellers: [summary] }, rows)).toEqual([]);
    expect(assortmentDiff({ sellers: [{ ...summary, total_value: 5_000_019_957.15 }] }, rows)).toEqual([
      'Todos total_value: API 5000019957.15 DuckDB 5000019957.16',
    ]);
  });
});

describe("the dashboard's discount buckets in DuckDB SQL (docs/metrics.md: the nearest multiple of 5, 22.5 → 25)", () => {
  it('buckets discounts of prices with cents exactly: 32.5 % → 35, 12.5 % → 15, 22.5 % → 25, 22.4 % → 20', async () => {
    // in doubles 100 × (8.00 − 5.40) / 8.00 = 32.49999999999999 (the medium market's first DuckDB run on
    // 2026-12-01 bucketed four such PEN listings a bucket too low, and the mode of the day with them)
    const db = await emptyRawTables();
    const now = new Date(Date.now() - 60_000).toISOString();
    await db.run(`insert into sellers values (5, 'Pivote', 'PEN', '${now}')`);
    const listings: [number, number, number][] = [
      [1, 8.0, 5.4], // 32.5 % → 35
      [2, 9.6, 8.4], // 12.5 % → 15
      [3, 8.0, 6.2], // 22.5 % → 25
      [4, 10.0, 7.76], // 22.4 % → 20
    ];
    for (const [id, normal, sale] of listings) {
      await db.run(`insert into products (id, seller_id, product_id, first_seen, last_seen, published)
                    values (${id}, 5, 'p${id}', '${now}', '${now}', true)`);
      await db.run(`insert into price_intervals (product_id, valid_from, valid_to, normal_price, sale_price,
                      price_type, stock_out, currency) values (${id}, '${now}', null, ${normal}, ${sale}, 'SALE', false, 'PEN')`);
    }
    const market: Market = { license: 1, zone: 'America/Santiago', licensed: [5], roots: [] };
    const today = isoDateInZone(new Date(), market.zone);
    const rows = await rowsOf(
      db,
      dashboardDaysSql(market, {
        pivot: 5,
        competitors: [],
        currency: 'PEN',
        from: today,
        to: today,
        previousFrom: today,
        today,
      }),
    );
    const day = rows.find((r) => String(r.day).startsWith(today));
    // ordered by the discount %: 12.5, 22.4, 22.5, 32.5
    expect(day).toBeDefined();
    expect(((day?.buckets ?? []) as unknown[]).map(Number)).toEqual([15, 20, 25, 35]);
    db.closeSync();
  });
});

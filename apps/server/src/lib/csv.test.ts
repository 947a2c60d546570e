import { isoDateInZone, reportTasksResponse } from '@vigia/domain';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/context.js';
import { type ReportsFixture, readCsv, reportsToken, seedReportsFixture } from '../test/reports-fixture.js';
import { csvCell, csvLine } from './csv.js';

// Issue 26, finding 4: CSV formula injection. Every CSV export is read back after the market's names —
// products, brands, SKUs, classifications, sellers — were replaced by hostile ones.

const HOSTILE = {
  product: '=HYPERLINK("http://evil.test","clic")',
  brand: '+SUM(1;2)',
  sku: '-2+3',
  seller: '@SUM(A1)',
  classification: '\t=1+1',
  carriage: '\r=1+1',
};
const DANGEROUS_START = /^[=+\-@\t\r]/;

describe('csvCell', () => {
  it('neutralises texts beginning with = + - @ tab or CR (leading apostrophe, quoted), numbers stay numbers', () => {
    expect(csvCell('=1+1')).toBe(`"'=1+1"`);
    expect(csvCell('+1')).toBe(`"'+1"`);
    expect(csvCell('-1')).toBe(`"'-1"`);
    expect(csvCell('@x')).toBe(`"'@x"`);
    expect(csvCell('\tx')).toBe(`"'\tx"`);
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(csvCell(HOSTILE.product)).toBe(`"'=HYPERLINK(""http://evil.test"",""clic"")"`);
    expect(csvCell(-50)).toBe('-50');
    expect(csvCell(-12.5)).toBe('-12,5');
    expect(csvCell('Leche = 1L')).toBe('Leche = 1L');
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvLine(['x', null, 3])).toBe('x;;3\r\n');
  });
});

let ctx: TestContext;
let fx: ReportsFixture;
let ana: string;

beforeAll(async () => {
  ctx = await createTestContext({
    seed: async (db) => {
      fx = await seedReportsFixture(db.pool);
      const q = (sql: string, params: unknown[]) => db.pool.query(sql, params);
      await q(`update products set name = $1 where seller_id in (5, 7, 8, 9)`, [HOSTILE.product]);
      await q(`update products set sku = $1 where seller_id in (5, 7, 8, 9)`, [HOSTILE.sku]);
      await q(`update brands set name = $1 || id`, [HOSTILE.brand]);
      await q(`update sellers set name = $1 || id where id in (5, 7, 8, 9)`, [HOSTILE.seller]);
      await q(`update classifications set name = case when id % 2 = 0 then $1 else $2 end || id`, [
        HOSTILE.classification,
        HOSTILE.carriage,
      ]);
    },
  });
  ana = reportsToken(ctx.config.JWT_SECRET, fx.rep.ana, fx.rep.org);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

const call = (method: 'GET' | 'POST', url: string, payload?: object, token: string | null = ana) =>
  ctx.app.inject({
    method,
    url,
    headers: token ? { authorization: `JWT ${token}` } : {},
    ...(payload ? { payload } : {}),
  });

async function reportFile(report_type: string, format: 'csv' | 'xlsx'): Promise<Buffer> {
  const res = await call('POST', '/v1/navigation-reports/', {
    report_type,
    format,
    from_date: isoDateInZone(fx.t0),
    to_date: isoDateInZone(new Date()),
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().id as string;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const list = reportTasksResponse.parse((await call('GET', '/v1/navigation-reports/')).json());
    const task = list.items.find((t) => t.id === id)!;
    if (task.status === 'succeeded') {
      const signed = await call('POST', '/v1/navigation-reports/sign-report/', { gs_url: task.gs_url });
      return (await call('GET', signed.json().url, undefined, null)).rawPayload;
    }
    if (task.status === 'failed' || Date.now() > deadline) throw new Error(`${report_type}: ${task.error}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Every cell of a CSV: none may start a formula (a negative number is a number: -50, -12,5); returns the
 * cells that carried a hostile text.
 */
function assertNeutral(rows: string[][]): string[] {
  const hostile: string[] = [];
  for (const row of rows)
    for (const cell of row) {
      if (!/^-\d+(,\d+)?$/.test(cell)) expect(cell, JSON.stringify(cell)).not.toMatch(DANGEROUS_START);
      if (/^'[=+\-@\t\r]/.test(cell)) hostile.push(cell);
    }
  return hostile;
}

describe('every CSV export neutralises hostile names', () => {
  for (const type of ['match', 'prices', 'promotions', 'assortment'] as const) {
    it(`${type} report CSV`, async () => {
      const rows = readCsv(await reportFile(type, 'csv'));
      expect(rows.length).toBeGreaterThan(1);
      const hostile = assertNeutral(rows);
      // the names are there, neutralised, not dropped
      expect(hostile.some((c) => c.startsWith("'+SUM(1;2)") || c.startsWith("'@SUM(A1)"))).toBe(true);
      if (type !== 'assortment') expect(hostile).toContain(`'${HOSTILE.product}`);
    });
  }

  it('product-history CSV', async () => {
    const res = await call('POST', '/v2/detail/qmi/history', {
      productId: 'a1',
      sellerId: 7,
      justPipeline: true,
      downloadablePipeline: true,
      format: 'csv',
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = readCsv(res.rawPayload);
    expect(rows.length).toBeGreaterThan(1);
    const hostile = assertNeutral(rows);
    expect(hostile).toContain(`'${HOSTILE.product}`);
    expect(hostile).toContain("'@SUM(A1)7");
  });

  it('XLSX reports write the same names as string cells, never formulas', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await reportFile('match', 'xlsx')) as unknown as ArrayBuffer);
    let strings = 0;
    wb.worksheets[0].eachRow((row) =>
      row.eachCell((cell) => {
        expect(cell.type).not.toBe(ExcelJS.ValueType.Formula);
        if (typeof cell.value === 'string' && DANGEROUS_START.test(cell.value)) {
          expect(cell.type).toBe(ExcelJS.ValueType.String);
          strings++;
        }
      }),
    );
    expect(strings).toBeGreaterThan(0);
  });
});

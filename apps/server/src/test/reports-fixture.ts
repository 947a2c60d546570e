import ExcelJS from 'exceljs';
import type pg from 'pg';
import { insertOrgWithLicense } from './fixtures.js';
import { type PricingFixture, seedPricingFixture, tokenOf } from './pricing-fixture.js';

// Reports tests' fixture: the hand-computed pricing market (pricing-fixture.ts, docs/metrics.md "Worked
// example") plus an organisation with the 'reports' module (and dpm, to compare with the DPM API, and the
// promotions and assortment modules whose report types it asks for) and two
// of its users, and a user of another organisation.

export interface ReportsFixture extends PricingFixture {
  rep: { org: number; ana: number; beto: number; other: number; otherOrg: number; mxn: number };
}

export async function seedReportsFixture(pool: pg.Pool): Promise<ReportsFixture> {
  const base = await seedPricingFixture(pool);
  const org = await insertOrgWithLicense(pool, {
    orgName: 'Reportes SA',
    sellers: [7, 8, 9],
    pivots: [5],
    currencies: ['CLP', 'USD', 'MXN'],
    modules: ['dpm', 'ecommerce_navigation', 'promotions', 'assortment', 'reports'],
  });
  const otherOrg = await insertOrgWithLicense(pool, {
    orgName: 'Otra SA',
    sellers: [7, 8],
    pivots: [5],
    currencies: ['CLP'],
    modules: ['reports'],
  });
  const user = async (orgId: number, email: string, tz = 'America/Santiago') =>
    (
      await pool.query<{ id: number }>(
        `insert into users (org_id, email, name, password_hash, pivot_id, currency, timezone)
         values ($1, $2, $2, 'x', 5, 'CLP', $3) returning id`,
        [orgId, email, tz],
      )
    ).rows[0].id;
  return {
    ...base,
    rep: {
      org: org.orgId,
      ana: await user(org.orgId, 'ana@reportes.cl'),
      beto: await user(org.orgId, 'beto@reportes.cl', 'America/Lima'),
      mxn: await user(org.orgId, 'mx@reportes.cl', 'America/Mexico_City'),
      other: await user(otherOrg.orgId, 'otro@otra.cl'),
      otherOrg: otherOrg.orgId,
    },
  };
}

export const reportsToken = (secret: string, userId: number, orgId: number) => tokenOf(secret, userId, orgId);

/** The cells of the first sheet of an XLSX file, row by row (row 1 = header). */
export async function readXlsx(buf: Buffer): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  const ws = wb.worksheets[0];
  const out: unknown[][] = [];
  const width = ws.getRow(1).cellCount;
  ws.eachRow({ includeEmpty: false }, (row) => {
    const values = (row.values as unknown[]).slice(1);
    out.push(Array.from({ length: width }, (_, i) => values[i] ?? null));
  });
  return out;
}

/** A report CSV (BOM, ';', ',' decimals, quoted texts) as rows of strings. */
export function readCsv(buf: Buffer): string[][] {
  const text = buf.toString('utf8');
  if (!text.startsWith('\uFEFF')) throw new Error('CSV without BOM');
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 1; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ';') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

/** A CSV number cell ("1040" or "105,26"; empty = null). */
export const csvNumber = (s: string) => (s === '' ? null : Number(s.replace(',', '.')));

/** The attachments of a raw MIME message (base64 parts with a filename). */
export function attachmentsOf(raw: string): { filename: string; content: Buffer }[] {
  const out: { filename: string; content: Buffer }[] = [];
  const text = raw.replace(/\r\n/g, '\n');
  const boundary = /boundary="?([^";\n]+)"?/i.exec(text)?.[1];
  if (!boundary) return out;
  for (const part of text.split(`--${boundary}`)) {
    const at = part.indexOf('\n\n');
    if (at < 0) continue;
    const head = part.slice(0, at).replace(/\n[ \t]+/g, ' ');
    const name = /filename="?([^";\n]+)"?/i.exec(head)?.[1];
    if (!name || !/content-transfer-encoding:\s*base64/i.test(head)) continue;
    out.push({ filename: name, content: Buffer.from(part.slice(at + 2).replace(/\s+/g, ''), 'base64') });
  }
  return out;
}

import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import { currencyDecimals } from '@vigia/domain';
import type ExcelJSModule from 'exceljs';

// THE workbook writer (issue 31 item 9): every XLSX the app writes — the screens' downloads (promotions,
// assortment, image verification, a listing's history) and the reports (streamed row by row) — goes
// through here, so that they are alike:
//   - typed columns: dates are date cells shown dd-mm-yyyy (never text), numbers stay numbers;
//   - money is rounded as the screens show it (formatPrice: no decimals but in USD, PAB, PEN and MXN) and
//     its header names the currency ("Precio promoción (CLP)"), added here when the builder's header
//     does not already end with one;
//   - a bold, frozen header row (after an optional note line such as "Primeras N de M …");
//   - Spanish file names naming the screen, its filters and its dates (xlsxFileName), sanitised.

/**
 * ExcelJS, loaded on the first workbook rather than at start: it is the largest module the server imports
 * (~0.2 s of CPU to compile, more on a busy machine) and only downloads and reports use it (issue 30,
 * cold start).
 */
let excel: typeof ExcelJSModule | undefined;
const ExcelJS = (): typeof ExcelJSModule => {
  excel ??= createRequire(import.meta.url)('exceljs') as typeof ExcelJSModule;
  return excel;
};

export type WorkbookCell = string | number | null;
/** How a column's cells are typed (numbers stay numbers; dates are date cells). */
export type ColumnKind = 'text' | 'int' | 'money' | 'decimal' | 'percent' | 'date' | 'datetime';
export interface WorkbookColumn {
  header: string;
  kind: ColumnKind;
  width?: number;
  /** A number format other than the kind's (e.g. '0.0000' for a similarity). */
  numFmt?: string;
}
export interface WorkbookSheet {
  /** Worksheet name (cut to Excel's 31 characters). */
  name: string;
  /** A line above the header (e.g. "Primeras N de M" when the file holds fewer rows than counted). */
  note?: string;
  columns: readonly WorkbookColumn[];
  rows: readonly WorkbookCell[][];
  /** The currency of the 'money' columns (their rounding and the header's "(XXX)"). */
  currency?: string | null;
}

export function numFmt(kind: ColumnKind, currency: string | null | undefined): string | undefined {
  switch (kind) {
    case 'int':
      return '#,##0';
    case 'money':
      return currencyDecimals(currency) > 0 ? '#,##0.00' : '#,##0';
    case 'decimal':
    case 'percent':
      return '#,##0.00';
    case 'date':
      return 'dd-mm-yyyy';
    case 'datetime':
      return 'dd-mm-yyyy hh:mm';
    default:
      return undefined;
  }
}

/** yyyy-MM-dd (or yyyy-MM-dd HH:mm) as an Excel date: the wall-clock time written as UTC. */
export function excelDate(v: string): Date | string {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}))?/.exec(v);
  if (!m) return v;
  return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], m[4] ? +m[4] : 0, m[5] ? +m[5] : 0));
}

/** A money amount as the screens show it: rounded to the currency's decimals (formatPrice). */
export function roundMoney(v: number, currency: string | null | undefined): number {
  const f = 10 ** currencyDecimals(currency);
  return Math.round(v * f) / f;
}

/** A money column's header names its currency: "Precio promoción" → "Precio promoción (CLP)". */
export function moneyHeader(header: string, currency: string | null | undefined): string {
  if (!currency || /\([A-Z]{3}\)$/.test(header)) return header;
  return `${header} (${currency.toUpperCase()})`;
}

/** The header row: money columns name their currency (the reports' CSV uses it too). */
export function headers(columns: readonly WorkbookColumn[], currency: string | null | undefined): string[] {
  return columns.map((c) => (c.kind === 'money' ? moneyHeader(c.header, currency) : c.header));
}

/** A row's cells typed by their columns (dates → Date, money rounded). */
function typedRow(
  columns: readonly WorkbookColumn[],
  row: readonly WorkbookCell[],
  currency: string | null | undefined,
): unknown[] {
  return row.map((v, i) => {
    const kind = columns[i]?.kind;
    if (kind === 'date' || kind === 'datetime') return typeof v === 'string' ? excelDate(v) : v;
    if (kind === 'money') return typeof v === 'number' ? roundMoney(v, currency) : v;
    return v;
  });
}

function setColumns(
  ws: ExcelJSModule.Worksheet,
  columns: readonly WorkbookColumn[],
  currency?: string | null,
) {
  ws.columns = columns.map((c, i) => {
    const fmt = c.numFmt ?? numFmt(c.kind, currency);
    return {
      key: String(i),
      width: c.width ?? (c.kind === 'text' ? 28 : c.kind === 'date' ? 12 : 16),
      style: fmt ? { numFmt: fmt } : {},
    };
  });
}

/** One sheet as an XLSX file in memory (the screens' downloads; run in the export pool). */
export async function workbookXlsx(sheet: WorkbookSheet): Promise<Buffer> {
  const wb = new (ExcelJS().Workbook)();
  wb.creator = 'Vigía';
  const top = sheet.note ? 2 : 1;
  const ws = wb.addWorksheet(sheet.name.slice(0, 31), { views: [{ state: 'frozen', ySplit: top }] });
  setColumns(ws, sheet.columns, sheet.currency);
  // ws.columns with keys would take the first row as a header: the rows are added after, by position
  if (sheet.note) ws.addRow([sheet.note]);
  ws.addRow(headers(sheet.columns, sheet.currency));
  ws.getRow(top).font = { bold: true };
  for (const r of sheet.rows) ws.addRow(typedRow(sheet.columns, r, sheet.currency));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export interface XlsxStreamWriter {
  /** Appends rows (committed to the zip stream as they are added). */
  addRows(rows: readonly WorkbookCell[][]): void;
  /** Writes the end of the file. */
  commit(): Promise<void>;
}

/**
 * The same workbook streamed row by row (the reports: never whole in memory; ExcelJS's WorkbookWriter,
 * no shared strings table so no per-file string cache). The caller owns `stream` (drain, close, abort).
 */
export function openXlsxStream(opts: {
  stream: Writable;
  sheetName: string;
  columns: readonly WorkbookColumn[];
  currency?: string | null;
}): XlsxStreamWriter {
  const { columns, currency } = opts;
  const wb = new (ExcelJS().stream.xlsx.WorkbookWriter)({
    stream: opts.stream,
    useStyles: true,
    useSharedStrings: false,
  });
  wb.creator = 'Vigía';
  const ws = wb.addWorksheet(opts.sheetName.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  setColumns(ws, columns, currency);
  const header = ws.addRow(headers(columns, currency));
  header.font = { bold: true };
  header.commit();
  return {
    addRows(rows) {
      for (const r of rows) ws.addRow(typedRow(columns, r, currency)).commit();
    },
    async commit() {
      ws.commit();
      await wb.commit();
    },
  };
}

// The file names (fileNamePart, xlsxFileName, namesPart) live in @vigia/domain: the web's fallback names
// its files the same way.
export { fileNamePart, namesPart, xlsxFileName } from '@vigia/domain';

/** The Content-Disposition of a download named by xlsxFileName (ASCII after fileNamePart). */
export function attachment(name: string): string {
  return `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** What filterNames needs of a pool or client. */
interface Queries {
  query<R>(sql: string, params: unknown[]): Promise<{ rows: R[] }>;
}

/** The names of the classifications and sellers a download's filters name, in the order given. */
export async function filterNames(
  db: Queries,
  ids: { classifications?: readonly number[] | null; sellers?: readonly number[] | null },
): Promise<{ classifications: string[]; sellers: string[] }> {
  const cls = [...(ids.classifications ?? [])];
  const sel = [...(ids.sellers ?? [])];
  const [c, s] = await Promise.all([
    cls.length
      ? db.query<{ id: number; name: string }>(
          'select id, name from classifications where id = any($1::int[])',
          [cls],
        )
      : { rows: [] },
    sel.length
      ? db.query<{ id: number; name: string }>('select id, name from sellers where id = any($1::int[])', [
          sel,
        ])
      : { rows: [] },
  ]);
  const byId = (rows: { id: number; name: string }[], list: number[]) =>
    list.flatMap((i) => rows.filter((r) => r.id === i).map((r) => r.name));
  return { classifications: byId(c.rows, cls), sellers: byId(s.rows, sel) };
}

import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { currencyDecimals, type ReportFormat } from '@vigia/domain';
import ExcelJS from 'exceljs';
import { CSV_BOM, csvLine } from '../../lib/csv.js';

// Report files written row by row, never whole in memory: CSV through a file stream (the product history
// download's dialect: BOM, ';', ',' decimals, lib/csv.ts), XLSX through ExcelJS's streaming
// WorkbookWriter (each row committed to the zip stream as it is added; no shared strings table, so no
// per-file string cache). Both wait for the disk when the stream's buffer is full.

export type ReportCell = string | number | null;
/** How a column's cells are typed in XLSX (numbers stay numbers; dates are date cells). */
export type ColumnKind = 'text' | 'int' | 'money' | 'decimal' | 'percent' | 'date' | 'datetime';
export interface ReportColumn {
  header: string;
  kind: ColumnKind;
  width?: number;
}

export interface RowSink {
  /** Appends rows (waits while the file stream is busy). */
  write(rows: readonly ReportCell[][]): Promise<void>;
  /** Closes the file; returns its size in bytes. */
  finish(): Promise<number>;
  /** Closes and deletes a partial file. */
  abort(): Promise<void>;
}

const numFmt = (kind: ColumnKind, currency: string): string | undefined => {
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
};

/** yyyy-MM-dd (or yyyy-MM-dd HH:mm) as an Excel date: the wall-clock time written as UTC. */
function excelDate(v: string): Date | string {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}))?/.exec(v);
  if (!m) return v;
  return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], m[4] ? +m[4] : 0, m[5] ? +m[5] : 0));
}

async function writeChunk(stream: WriteStream, chunk: string): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain');
}

async function closeStream(stream: WriteStream): Promise<void> {
  if (stream.closed) return;
  const done = once(stream, 'close');
  stream.end();
  await done;
}

export async function openRowSink(opts: {
  path: string;
  format: ReportFormat;
  sheetName: string;
  columns: readonly ReportColumn[];
  currency: string;
}): Promise<RowSink> {
  await mkdir(dirname(opts.path), { recursive: true });
  const { path, columns } = opts;
  if (opts.format === 'csv') {
    const stream = createWriteStream(path, { encoding: 'utf8', mode: 0o600 });
    await writeChunk(stream, CSV_BOM + csvLine(columns.map((c) => c.header)));
    return {
      async write(rows) {
        if (rows.length) await writeChunk(stream, rows.map(csvLine).join(''));
      },
      async finish() {
        await closeStream(stream);
        return (await stat(path)).size;
      },
      async abort() {
        await closeStream(stream).catch(() => {});
        await rm(path, { force: true });
      },
    };
  }

  const stream = createWriteStream(path, { mode: 0o600 });
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  wb.creator = 'Vigía';
  const ws = wb.addWorksheet(opts.sheetName.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = columns.map((c, i) => ({
    key: String(i),
    width: c.width ?? (c.kind === 'text' ? 28 : 14),
    style: numFmt(c.kind, opts.currency) ? { numFmt: numFmt(c.kind, opts.currency) } : {},
  }));
  const header = ws.addRow(columns.map((c) => c.header));
  header.font = { bold: true };
  header.commit();
  const dateCols = columns.flatMap((c, i) => (c.kind === 'date' || c.kind === 'datetime' ? [i] : []));
  return {
    async write(rows) {
      for (const r of rows) {
        const cells: unknown[] = dateCols.length ? [...r] : (r as unknown[]);
        for (const i of dateCols) if (typeof cells[i] === 'string') cells[i] = excelDate(cells[i] as string);
        ws.addRow(cells).commit();
      }
      // let the zip stream flush to disk before the next batch
      if (stream.writableNeedDrain) await once(stream, 'drain');
    },
    async finish() {
      ws.commit();
      await wb.commit();
      if (!stream.closed) await once(stream, 'close');
      return (await stat(path)).size;
    },
    async abort() {
      stream.destroy();
      await rm(path, { force: true });
    },
  };
}

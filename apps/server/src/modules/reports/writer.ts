import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ReportFormat } from '@vigia/domain';
import { CSV_BOM, csvLine } from '../../lib/csv.js';
import { headers, openXlsxStream, type WorkbookCell, type WorkbookColumn } from '../../lib/workbook.js';

// Report files written row by row, never whole in memory: CSV through a file stream (the product history
// download's dialect: BOM, ';', ',' decimals, lib/csv.ts), XLSX through the app's one workbook writer
// streamed (lib/workbook.ts openXlsxStream: each row committed to the zip stream as it is added). Both
// wait for the disk when the stream's buffer is full.

export type ReportCell = WorkbookCell;
export type { ColumnKind } from '../../lib/workbook.js';
export type ReportColumn = WorkbookColumn;

export interface RowSink {
  /** Appends rows (waits while the file stream is busy). */
  write(rows: readonly ReportCell[][]): Promise<void>;
  /** Closes the file; returns its size in bytes. */
  finish(): Promise<number>;
  /** Closes and deletes a partial file. */
  abort(): Promise<void>;
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
    await writeChunk(stream, CSV_BOM + csvLine(headers(columns, opts.currency)));
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
  // the one workbook writer (lib/workbook.ts): date cells, money rounded and named by its currency
  const xlsx = openXlsxStream({ stream, sheetName: opts.sheetName, columns, currency: opts.currency });
  return {
    async write(rows) {
      xlsx.addRows(rows);
      // let the zip stream flush to disk before the next batch
      if (stream.writableNeedDrain) await once(stream, 'drain');
    },
    async finish() {
      await xlsx.commit();
      if (!stream.closed) await once(stream, 'close');
      return (await stat(path)).size;
    },
    async abort() {
      stream.destroy();
      await rm(path, { force: true });
    },
  };
}

import {
  historyFileName as domainHistoryFileName,
  MESSAGES,
  priceTypeLabel,
  QMI_HISTORY_COLUMNS,
  type QmiHistoryPoint,
} from '@vigia/domain';
import { CSV_BOM, csvLine } from '../../lib/csv.js';
import { type WorkbookColumn, workbookXlsx } from '../../lib/workbook.js';

// The downloadable price history of one listing (/v2/detail/qmi/history with downloadablePipeline):
// one row per day, columns QMI_HISTORY_COLUMNS, as XLSX (default; the day is a real date cell shown
// dd-mm-yyyy) or CSV as Spanish-locale spreadsheets open it: UTF-8 with BOM, ';' separated, ',' decimals
// (no thousands separator), RFC 4180 quoting, days as yyyy-mm-dd.

export interface HistoryDownloadInput {
  sellerName: string;
  productId: string;
  name: string | null;
  currency: string;
  prices: QmiHistoryPoint[];
}

function rows(input: HistoryDownloadInput): (string | number | null)[][] {
  return input.prices.map((p) => [
    p.date,
    input.sellerName,
    input.productId,
    input.name ?? '',
    p.price,
    p.normal_price,
    p.sale_price,
    p.exclusive_price,
    priceTypeLabel(p.price_type),
    // a history point is a day the listing was seen: availability only depends on stock
    p.stock_out ? MESSAGES.unavailableStockOut : MESSAGES.available,
    input.currency,
  ]);
}

export function historyCsv(input: HistoryDownloadInput): Buffer {
  const lines = [QMI_HISTORY_COLUMNS as readonly string[], ...rows(input)].map(csvLine);
  return Buffer.from(`${CSV_BOM}${lines.join('')}`, 'utf8');
}

const [DAY, SELLER, ID, NAME, PRICE, NORMAL, SALE, EXCLUSIVE, TYPE, AVAILABILITY, CURRENCY] =
  QMI_HISTORY_COLUMNS;
const HISTORY_COLUMNS: WorkbookColumn[] = [
  { header: DAY, kind: 'date' },
  { header: SELLER, kind: 'text', width: 16 },
  { header: ID, kind: 'text', width: 16 },
  { header: NAME, kind: 'text', width: 40 },
  ...[PRICE, NORMAL, SALE, EXCLUSIVE].map((header): WorkbookColumn => ({ header, kind: 'money' })),
  ...[TYPE, AVAILABILITY, CURRENCY].map((header): WorkbookColumn => ({ header, kind: 'text', width: 16 })),
];

/** The XLSX (the app's one workbook writer: the day a date cell, prices rounded and named by currency). */
export function historyXlsx(input: HistoryDownloadInput): Promise<Buffer> {
  return workbookXlsx({
    name: 'Histórico',
    currency: input.currency,
    columns: HISTORY_COLUMNS,
    rows: rows(input),
  });
}

/**
 * A small history to write a few workbooks with once the server is ready (detail/routes.ts): the first
 * XLSX downloads of a fresh thread took 180, 66, 43… ms (ExcelJS and its zip code being compiled) against
 * ~18 ms once warm.
 */
export function warmInput(): HistoryDownloadInput {
  const prices: QmiHistoryPoint[] = Array.from({ length: 31 }, (_, i) => ({
    date: `2026-01-${String(i + 1).padStart(2, '0')}`,
    price: 1990 + i,
    normal_price: 2490,
    sale_price: 1990 + i,
    exclusive_price: null,
    price_type: 'SALE' as const,
    stock_out: false,
  }));
  return { sellerName: 'Vigía', productId: 'warm', name: 'Calentamiento', currency: 'CLP', prices };
}

/** `historico_<seller>_<product>_<from>_<to>.<ext>` (the web's fallback names it the same way). */
export function historyFileName(input: HistoryDownloadInput, from: string, to: string, ext: string): string {
  return domainHistoryFileName(input.sellerName, input.productId, from, to, ext);
}

import { MESSAGES, priceTypeLabel, QMI_HISTORY_COLUMNS, type QmiHistoryPoint } from '@vigia/domain';
import ExcelJS from 'exceljs';

// The downloadable price history of one listing (/v2/detail/qmi/history with downloadablePipeline):
// one row per day, columns QMI_HISTORY_COLUMNS, as XLSX (default) or CSV (UTF-8 with BOM, ',' separated,
// RFC 4180 quoting, '.' decimals so spreadsheets read numbers).

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

const csvCell = (v: string | number | null) => {
  if (v === null) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export function historyCsv(input: HistoryDownloadInput): Buffer {
  const lines = [QMI_HISTORY_COLUMNS as readonly string[], ...rows(input)].map((r) =>
    r.map(csvCell).join(','),
  );
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}

export async function historyXlsx(input: HistoryDownloadInput): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Vigía';
  const ws = wb.addWorksheet('Histórico');
  ws.addRow([...QMI_HISTORY_COLUMNS]);
  ws.getRow(1).font = { bold: true };
  for (const r of rows(input)) ws.addRow(r);
  ws.columns.forEach((c, i) => {
    c.width = i === 3 ? 40 : 16;
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A safe file name: letters, digits, '-', '_' and '.'. */
export function historyFileName(input: HistoryDownloadInput, from: string, to: string, ext: string): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 60);
  return `historico_${clean(input.sellerName)}_${clean(input.productId)}_${from}_${to}.${ext}`;
}

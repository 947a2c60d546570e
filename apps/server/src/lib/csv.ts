// CSV as Spanish-locale spreadsheets open it (every CSV download: product history, reports): UTF-8 with
// a BOM, ';' separated, ',' decimals (no thousands separator), RFC 4180 quoting, CRLF line ends.

export const CSV_SEPARATOR = ';';
export const CSV_BOM = '\uFEFF';

export type CsvValue = string | number | null;

/**
 * Text that a spreadsheet would run as a formula (it begins with =, +, -, @, a tab or a carriage return)
 * gets a leading apostrophe: outside data (a feed's title "=HYPERLINK(…)") is shown, never run. Numbers
 * are written as numbers and are not touched.
 */
export const neutraliseFormula = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);

export const csvCell = (v: CsvValue) => {
  if (v === null) return '';
  const s = typeof v === 'number' ? String(v).replace('.', ',') : neutraliseFormula(v);
  return /[";,\r\n]/.test(s) && typeof v !== 'number' ? `"${s.replace(/"/g, '""')}"` : s;
};

/** One CSV line (with its CRLF). */
export const csvLine = (row: readonly CsvValue[]) => `${row.map(csvCell).join(CSV_SEPARATOR)}\r\n`;

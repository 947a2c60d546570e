// CSV as Spanish-locale spreadsheets open it (every CSV download: product history, reports): UTF-8 with
// a BOM, ';' separated, ',' decimals (no thousands separator), RFC 4180 quoting, CRLF line ends.
//
// Texts come from competitors' sites (names, brands, SKUs, classifications, sellers): hostile. A text
// cell beginning with = + - @ tab or CR would be read by a spreadsheet as a formula (CSV injection), so it
// is neutralised as OWASP says: a leading apostrophe, and the cell quoted. Numbers are written as
// numbers (a negative difference stays a number). XLSX downloads write texts as string cells already.

export const CSV_SEPARATOR = ';';
export const CSV_BOM = '\uFEFF';

export type CsvValue = string | number | null;

/** First characters that make a spreadsheet evaluate a cell (OWASP "CSV Injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** The one CSV cell function of the application: quoting and formula neutralisation. */
export const csvCell = (v: CsvValue) => {
  if (v === null) return '';
  if (typeof v === 'number') return String(v).replace('.', ',');
  const s = FORMULA_START.test(v) ? `'${v}` : v;
  return s !== v || /[";,\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** One CSV line (with its CRLF). */
export const csvLine = (row: readonly CsvValue[]) => `${row.map(csvCell).join(CSV_SEPARATOR)}\r\n`;

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

/**
 * Text that a spreadsheet would run as a formula (it begins with =, +, -, @, a tab or a carriage return)
 * gets a leading apostrophe: outside data (a feed's title "=HYPERLINK(…)") is shown, never run. Numbers
 * are written as numbers and are not touched.
 */
export const neutraliseFormula = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);

/** The one CSV cell function of the application: quoting and formula neutralisation (quoted when neutralised). */
export const csvCell = (v: CsvValue) => {
  if (v === null) return '';
  if (typeof v === 'number') return String(v).replace('.', ',');
  const s = neutraliseFormula(v);
  return s !== v || /[";,\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** One CSV line (with its CRLF). */
export const csvLine = (row: readonly CsvValue[]) => `${row.map(csvCell).join(CSV_SEPARATOR)}\r\n`;

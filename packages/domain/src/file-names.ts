// The Spanish names of downloaded files (issue 31 item 9): the server names every download with these
// (apps/server/src/lib/workbook.ts re-exports them) and the web names its fallback the same way when a
// response carries no Content-Disposition — one naming for both.

/** A file-name part: accents dropped, anything but letters, digits, '_' and '+' becomes '-'. */
export function fileNamePart(s: string, max = 40): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_+]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/g, '');
}

/**
 * The Spanish name of a downloaded file: the screen, its filters, its dates —
 * `promociones_por_dia_Hogar-Total_2026-11-28.xlsx` (one day) or `…_2026-10-05_2026-10-11.xlsx` (a
 * period). Empty filters are left out; at most 150 characters before the dates.
 */
export function xlsxFileName(
  screen: string,
  filters: readonly (string | number | null | undefined)[],
  from: string | null | undefined,
  to?: string | null,
): string {
  const parts = filters
    .filter((f): f is string | number => f !== null && f !== undefined && String(f).trim() !== '')
    .map((f) => fileNamePart(String(f)))
    .filter(Boolean);
  let head = [fileNamePart(screen, 60), ...parts].join('_');
  if (head.length > 150) head = head.slice(0, 150).replace(/[-_]+$/g, '');
  const day = (d: string | null | undefined) => (d && /^\d{4}-\d{2}-\d{2}/.test(d) ? d.slice(0, 10) : null);
  const dates = [...new Set([day(from), day(to)].filter((d): d is string => d !== null))];
  return `${[head, ...dates].join('_')}.xlsx`;
}

/** Names as one file-name part: the first `shown`, then "+N" for the rest ("Hogar+Tecnologia+1"). */
export function namesPart(names: readonly string[], shown = 2): string | null {
  if (!names.length) return null;
  const head = names.slice(0, shown).map((n) => fileNamePart(n, 30));
  return names.length > shown ? `${head.join('+')}+${names.length - shown}` : head.join('+');
}

/** The screen part of each download's file name. */
export const PROMOTION_FILE = {
  level: 'promociones_por_dia',
  duration: 'promociones_por_duracion',
  type: 'promociones_por_formato',
  range: 'promociones_por_rango',
  'scatter-plot': 'dispersion_de_precios',
  prices: 'promociones_productos',
} as const;
export const ASSORTMENT_FILE = {
  brand: 'surtido_por_marca',
  ecommerce: 'surtido_por_ecommerce',
  stock: 'cambio_de_disponibilidad',
} as const;
export const IMAGE_VERIFICATION_FILE = 'verificacion_de_imagenes';

/** A listing's price history: `historico_<seller>_<product>_<from>_<to>.<ext>`. */
export function historyFileName(
  seller: string,
  productId: string,
  from: string,
  to: string,
  ext: string,
): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 60);
  return `historico_${clean(seller)}_${clean(productId)}_${from}_${to}.${ext}`;
}

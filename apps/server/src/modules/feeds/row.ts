import type { FeedField, FeedMapping } from '@vigia/domain';
import { FEED_FIELDS } from '@vigia/domain';
import type { Observation } from '../ingest/index.js';
import { currencyOf, minorToAmount, parsePrice } from './price.js';

// One feed row (the Merchant fields as text) → one observation for ingestObservations, or the reason it
// is rejected. Same rules for every format (XML, TSV, mapped CSV) and for rows pushed through the API.

export type FeedRow = Partial<Record<FeedField, string>>;

export interface SellerTerms {
  currency: string;
  /** Decimals of every known currency (the `currencies` table). */
  decimals: ReadonlyMap<string, number>;
}

export type RowOutcome = { ok: true; obs: Observation } | { ok: false; reason: string; id: string | null };

const MAX = { id: 200, title: 500, link: 2000, brand: 200, gtin: 20, mpn: 100, category: 500 } as const;

const clip = (v: string | undefined, n: number): string | null => {
  const t = v?.trim();
  return t ? t.slice(0, n) : null;
};

const OUT_OF_STOCK = new Set([
  'out of stock',
  'out_of_stock',
  'outofstock',
  'agotado',
  'sin stock',
  'discontinued',
]);
const IN_STOCK = new Set([
  'in stock',
  'in_stock',
  'instock',
  'preorder',
  'backorder',
  'disponible',
  'en stock',
]);

/** Whether a sale price applies at `now` given Merchant's "start/end" ISO 8601 interval (empty: always). */
export function saleApplies(effective: string | undefined, now: Date): boolean {
  const t = effective?.trim();
  if (!t) return true;
  const [from, to] = t.split('/');
  const a = Date.parse(from ?? '');
  const b = Date.parse(to ?? '');
  if (Number.isNaN(a) || Number.isNaN(b)) return true;
  return a <= now.getTime() && now.getTime() < b;
}

/** Reads one feed row. Never throws: a bad row is a reason. */
export function rowToObservation(row: FeedRow, seller: SellerTerms, now: Date): RowOutcome {
  const id = clip(row.id, 1_000);
  if (!id) return { ok: false, reason: 'falta el id', id: null };
  if (id.length > MAX.id)
    return { ok: false, reason: 'id demasiado largo (más de 200 caracteres)', id: id.slice(0, 40) };
  const decimalsOf = (c: string) => seller.decimals.get(c);
  if (!row.price?.trim()) return { ok: false, reason: 'falta el precio', id };
  const named = currencyOf(row.price);
  if (named && named !== seller.currency)
    return {
      ok: false,
      reason: `moneda ${named} distinta de la del eCommerce (${seller.currency}); no se convierte`,
      id,
    };
  const price = parsePrice(row.price, decimalsOf, seller.currency);
  if (!price.ok) return { ok: false, reason: price.reason, id };
  if (price.price.currency !== seller.currency)
    return {
      ok: false,
      reason: `moneda ${price.price.currency} distinta de la del eCommerce (${seller.currency}); no se convierte`,
      id,
    };
  let sale: number | null = null;
  if (row.sale_price?.trim()) {
    const s = parsePrice(row.sale_price, decimalsOf, seller.currency);
    if (!s.ok) return { ok: false, reason: `precio de oferta: ${s.reason}`, id };
    if (s.price.currency !== seller.currency)
      return {
        ok: false,
        reason: `moneda del precio de oferta ${s.price.currency} distinta de la del eCommerce (${seller.currency})`,
        id,
      };
    if (saleApplies(row.sale_price_effective_date, now)) sale = s.price.minor;
  }
  const dec = seller.decimals.get(seller.currency) ?? 0;
  const availability = row.availability?.trim().toLowerCase();
  if (availability && !OUT_OF_STOCK.has(availability) && !IN_STOCK.has(availability))
    return { ok: false, reason: `disponibilidad desconocida: ${availability.slice(0, 40)}`, id };
  const gtin = row.gtin?.replace(/\s/g, '');
  if (gtin && !/^\d{8,14}$/.test(gtin))
    return { ok: false, reason: `GTIN no válido: ${gtin.slice(0, 20)}`, id };
  const link = clip(row.link, MAX.link);
  if (link && !/^https?:\/\//i.test(link)) return { ok: false, reason: 'link no es http(s)', id };
  const image = clip(row.image_link, MAX.link);
  const category = clip(row.product_type, MAX.category);
  const obs: Observation = {
    productId: id,
    name: clip(row.title, MAX.title),
    url: link,
    imageUrl: image && /^https?:\/\//i.test(image) ? image : null,
    brand: clip(row.brand, MAX.brand),
    ean: gtin || null,
    sku: clip(row.mpn, MAX.mpn),
    categoryPath: category
      ? category
          .split('>')
          .map((s) => s.trim())
          .filter(Boolean)
          .slice(0, 6)
      : null,
    normalPrice: minorToAmount(price.price.minor, dec),
    // A sale price not below the normal one is no sale (Merchant: sale_price < price).
    salePrice: sale !== null && sale < price.price.minor ? minorToAmount(sale, dec) : null,
    stockOut: availability ? OUT_OF_STOCK.has(availability) : false,
    currency: seller.currency,
  };
  return { ok: true, obs };
}

/** The Merchant field a column header names ("g:price", "Price", "sale price" → price / sale_price). */
export function merchantFieldOf(header: string): FeedField | null {
  const h = header
    .trim()
    .toLowerCase()
    .replace(/^g:/, '')
    .replace(/[\s-]+/g, '_');
  return (FEED_FIELDS as readonly string[]).includes(h) ? (h as FeedField) : null;
}

/** Spanish and common header names a CSV mapping is guessed from (the user confirms it on screen). */
const GUESSES: Record<string, FeedField> = {
  sku: 'id',
  codigo: 'id',
  código: 'id',
  id_producto: 'id',
  nombre: 'title',
  titulo: 'title',
  título: 'title',
  producto: 'title',
  descripcion: 'description',
  descripción: 'description',
  url: 'link',
  enlace: 'link',
  imagen: 'image_link',
  precio: 'price',
  precio_normal: 'price',
  precio_oferta: 'sale_price',
  oferta: 'sale_price',
  stock: 'availability',
  disponibilidad: 'availability',
  marca: 'brand',
  ean: 'gtin',
  categoria: 'product_type',
  categoría: 'product_type',
};

/** A mapping guessed from a file's headers: Merchant names first, then common Spanish ones. */
export function guessMapping(columns: readonly string[]): FeedMapping {
  const out: FeedMapping = {};
  for (const c of columns) {
    const key = c.trim().toLowerCase().replace(/\s+/g, '_');
    const f = merchantFieldOf(c) ?? GUESSES[key];
    if (f && !out[f]) out[f] = c;
  }
  return out;
}

/** A header row and one record → the feed row a mapping describes (field → column's value). */
export function mapRecord(
  columns: readonly string[],
  record: readonly string[],
  mapping: FeedMapping,
): FeedRow {
  const row: FeedRow = {};
  for (const [field, column] of Object.entries(mapping) as [FeedField, string][]) {
    const i = columns.indexOf(column);
    if (i >= 0 && record[i] !== undefined) row[field] = record[i];
  }
  return row;
}

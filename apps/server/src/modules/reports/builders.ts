import {
  ConvertedSum,
  DEFAULT_PRICE_MODE,
  DEFAULT_TIMEZONE,
  discountPercent,
  effectivePriceFor,
  isCheaper,
  type PriceType,
  priceIndex,
  priceTypeLabel,
  productDisplayName,
  type ReportFormat,
  type ReportType,
  round2,
  share,
} from '@vigia/domain';
import type { Queryable } from '../../db/database.js';
import { cents, loadFx, selectRates } from '../../market/index.js';
import { dayZone } from '../ingest/index.js';
import {
  countHistory,
  countMatchPivots,
  countPromotions,
  type HistoryScopeParams,
  type MatchOfferRow,
  selectAssortment,
  selectHistory,
  selectHistoryListings,
  selectMatchOffers,
  selectMatchPivots,
  selectPromotions,
  sellerNames,
} from './queries.js';
import type { ReportCell, ReportColumn } from './writer.js';

// The report types (docs/metrics.md "Reports"): each one is its columns, a count of its rows (the
// progress bar's total) and its rows in batches read with keyset queries (queries.ts), so a whole-license
// report over 180 days never holds more than one batch. Prices are converted to the report's currency
// with the market core's rates; the formulas are the domain's (effective price, index, position).

/** What a task resolved at request time (license-checked): stored in export_tasks.params. */
export interface ReportParams {
  report_type: ReportType;
  format: ReportFormat;
  pivot: number;
  /** competitors (the pivot excluded) */
  sellers: number[];
  currency: string;
  /** the license's classification roots (empty = the whole tree) */
  roots: number[];
  from: string;
  to: string;
  /**
   * The organisation's market zone (what a day of the window is) and the user's zone (how times read),
   * as they are when the report is built (reportAccessNow); absent in tasks queued before issue 25.
   */
  zone?: string;
  timezone?: string;
}

/** The zones of a report: the market zone and the user's (the deployment's default when absent). */
const zonesOf = (p: ReportParams) => ({
  zone: p.zone ?? DEFAULT_TIMEZONE,
  timezone: p.timezone ?? p.zone ?? DEFAULT_TIMEZONE,
});

export interface ReportBuilder {
  sheetName: string;
  columns: ReportColumn[];
  /** rows the report will have (progress); may be an estimate when rows come from a changing table */
  total: number;
  batches(): AsyncGenerator<ReportCell[][]>;
}

export const BATCH_SIZE = 2000;

/**
 * The pages of a keyset query: `page(after)` reads the rows whose key is above `after` (in key order,
 * at most a batch), `keyOf` gives a row's key; it ends at the first empty page. Only one page is held.
 */
export async function* keysetPages<T>(
  page: (after: number) => Promise<T[]>,
  keyOf: (row: T) => number,
): AsyncGenerator<T[]> {
  let after = 0;
  for (;;) {
    const rows = await page(after);
    if (!rows.length) return;
    after = keyOf(rows[rows.length - 1]);
    yield rows;
  }
}

const yesNo = (b: boolean) => (b ? 'Sí' : 'No');

export class ReportDataError extends Error {}

async function ratesOrFail(db: Queryable, currency: string, day: string) {
  const rates = await selectRates(db, currency, day);
  if (!rates) throw new ReportDataError(`no hay tipo de cambio para ${currency} al ${day}`);
  return rates;
}

// ───────────────────────────── match ─────────────────────────────

/** One pivot product of the match report, computed as the pricing screens compute it. */
export interface MatchLine {
  my: number | null;
  min: number | null;
  max: number | null;
  index: number | null;
  position: number | null;
  ranked: number;
  /** per competitor (in the report's seller order): its lowest comparable price */
  bySeller: (number | null)[];
}

/**
 * My price, lowest/highest comparable competitor price, index and position of one pivot product
 * (docs/metrics.md "Pricing": comparable = in stock with an effective price after conversion; position
 * = 1 + competitors strictly cheaper at their lowest price; ranked = comparable competitors + 1).
 */
export function matchLine(
  pivot: {
    normal_price: number | null;
    sale_price: number | null;
    exclusive_price: number | null;
    currency: string;
  },
  offers: readonly MatchOfferRow[],
  sellers: readonly number[],
  rates: Map<string, number>,
): MatchLine {
  const conv = (p: number | null, cur: string) => {
    const f = rates.get(cur);
    return p === null || f === undefined ? null : p * f;
  };
  const eff = (r: {
    normal_price: number | null;
    sale_price: number | null;
    exclusive_price: number | null;
  }) =>
    effectivePriceFor(
      { normal: r.normal_price, sale: r.sale_price, exclusive: r.exclusive_price },
      DEFAULT_PRICE_MODE,
    );
  const myRaw = conv(eff(pivot), pivot.currency);
  const my = myRaw !== null && myRaw > 0 ? myRaw : null;
  const best = new Map<number, number>();
  let min: number | null = null;
  let max: number | null = null;
  for (const o of offers) {
    if (o.stock_out) continue;
    const p = conv(eff(o), o.currency);
    if (p === null || !(p > 0)) continue;
    if (min === null || p < min) min = p;
    if (max === null || p > max) max = p;
    const b = best.get(o.seller_id);
    if (b === undefined || p < b) best.set(o.seller_id, p);
  }
  const index = priceIndex(my, min);
  let position: number | null = null;
  if (index !== null && my !== null) position = 1 + [...best.values()].filter((p) => isCheaper(p, my)).length;
  return {
    my,
    min,
    max,
    index,
    position,
    ranked: index === null ? 0 : best.size + 1,
    bySeller: sellers.map((s) => best.get(s) ?? null),
  };
}

async function matchBuilder(db: Queryable, p: ReportParams): Promise<ReportBuilder> {
  const scope = { pivot: p.pivot, sellers: p.sellers, roots: p.roots, from: p.from, to: p.to, ...zonesOf(p) };
  const [rates, names, total] = await Promise.all([
    ratesOrFail(db, p.currency, p.to),
    sellerNames(db, p.sellers),
    countMatchPivots(db, scope),
  ]);
  const columns: ReportColumn[] = [
    { header: 'SKU', kind: 'text', width: 16 },
    { header: 'ID eCommerce', kind: 'text', width: 16 },
    { header: 'EAN', kind: 'text', width: 16 },
    { header: 'Producto', kind: 'text', width: 40 },
    { header: 'Marca', kind: 'text', width: 18 },
    { header: 'Clasificación', kind: 'text', width: 22 },
    { header: `Mi precio (${p.currency})`, kind: 'money' },
    { header: 'Tipo de precio', kind: 'text', width: 16 },
    { header: 'Sin stock', kind: 'text', width: 10 },
    { header: 'Precio mínimo competencia', kind: 'money' },
    { header: 'Precio máximo competencia', kind: 'money' },
    { header: 'Diferencia', kind: 'money' },
    { header: 'Diferencia (%)', kind: 'percent' },
    { header: 'Índice de precios', kind: 'decimal' },
    { header: 'Posición', kind: 'int' },
    { header: 'eCommerce comparados', kind: 'int' },
    ...p.sellers.map((s): ReportColumn => ({ header: names.get(s) ?? `eCommerce ${s}`, kind: 'money' })),
  ];
  return {
    sheetName: 'Match',
    columns,
    total,
    async *batches() {
      const pages = keysetPages(
        (after) => selectMatchPivots(db, scope, after, BATCH_SIZE),
        (r) => r.id,
      );
      for await (const pivots of pages) {
        const offers = await selectMatchOffers(db, [...new Set(pivots.map((r) => r.group_id))], scope);
        const byGroup = new Map<number, MatchOfferRow[]>();
        for (const o of offers) {
          const list = byGroup.get(o.group_id);
          if (list) list.push(o);
          else byGroup.set(o.group_id, [o]);
        }
        yield pivots.map((r) => {
          const m = matchLine(r, byGroup.get(r.group_id) ?? [], p.sellers, rates);
          return [
            r.sku,
            r.product_id,
            r.ean,
            productDisplayName(r.name),
            r.brand,
            r.class_name,
            cents(m.my),
            priceTypeLabel(r.price_type as PriceType),
            yesNo(r.stock_out),
            cents(m.min),
            cents(m.max),
            m.index === null || m.my === null || m.min === null ? null : cents(m.my - m.min),
            m.index === null ? null : round2(m.index - 100),
            round2(m.index),
            m.position,
            m.index === null ? null : m.ranked,
            ...m.bySeller.map(cents),
          ];
        });
      }
    },
  };
}

// ───────────────────────────── price history ─────────────────────────────

const historyScope = (p: ReportParams): HistoryScopeParams => ({
  sellers: [p.pivot, ...p.sellers],
  roots: p.roots,
  from: p.from,
  to: p.to,
  ...zonesOf(p),
});

/** Seller names, the row count and day-by-day rates of the pivot's and competitors' currencies. */
async function historyContext(
  db: Queryable,
  p: ReportParams,
  count: (db: Queryable, h: HistoryScopeParams) => Promise<number>,
) {
  const scope = historyScope(p);
  const [names, total, currencies] = await Promise.all([
    sellerNames(db, scope.sellers),
    count(db, scope),
    db.query<{ currency: string }>('select distinct currency from sellers where id = any($1::int[])', [
      scope.sellers,
    ]),
  ]);
  const fx = await loadFx(db, [p.currency, ...currencies.rows.map((r) => r.currency)], p.from, p.to);
  return { scope, names, total, fx };
}

/** The day an interval's prices convert at: its start, clamped into the report's range. */
const clampDay = (day: string, from: string, to: string) => (day < from ? from : day > to ? to : day);

async function pricesBuilder(db: Queryable, p: ReportParams): Promise<ReportBuilder> {
  const { scope, names, total, fx } = await historyContext(db, p, countHistory);
  const columns: ReportColumn[] = [
    { header: 'eCommerce', kind: 'text', width: 18 },
    { header: 'ID eCommerce', kind: 'text', width: 16 },
    { header: 'SKU', kind: 'text', width: 16 },
    { header: 'EAN', kind: 'text', width: 16 },
    { header: 'Producto', kind: 'text', width: 40 },
    { header: 'Marca', kind: 'text', width: 18 },
    { header: 'Desde', kind: 'datetime', width: 17 },
    { header: 'Hasta', kind: 'datetime', width: 17 },
    { header: `Precio normal (${p.currency})`, kind: 'money' },
    { header: 'Precio oferta', kind: 'money' },
    { header: 'Precio exclusivo', kind: 'money' },
    { header: 'Precio por cantidad', kind: 'money' },
    { header: 'Precio efectivo', kind: 'money' },
    { header: 'Tipo de precio', kind: 'text', width: 16 },
    { header: 'Sin stock', kind: 'text', width: 10 },
  ];
  return {
    sheetName: 'Precios',
    columns,
    total,
    async *batches() {
      // a page of listings, then all their intervals in the window (a listing's rows stay together)
      const pages = keysetPages(
        (after) => selectHistoryListings(db, scope, after, BATCH_SIZE / 4),
        (id) => id,
      );
      for await (const ids of pages) {
        const rows = await selectHistory(db, ids, scope);
        yield rows.map((r) => {
          const day = clampDay(r.valid_from.slice(0, 10), p.from, p.to);
          const c = (v: number | null) => fx.convert(v, r.currency, p.currency, day);
          const eff = effectivePriceFor(
            { normal: r.normal_price, sale: r.sale_price, exclusive: r.exclusive_price },
            DEFAULT_PRICE_MODE,
          );
          return [
            names.get(r.seller_id) ?? String(r.seller_id),
            r.product_id,
            r.sku,
            r.ean,
            productDisplayName(r.name),
            r.brand,
            r.valid_from,
            r.valid_to,
            c(r.normal_price),
            c(r.sale_price),
            c(r.exclusive_price),
            c(r.byquantity_price),
            c(eff),
            priceTypeLabel(r.price_type as PriceType),
            yesNo(r.stock_out),
          ];
        });
      }
    },
  };
}

// ───────────────────────────── promotions ─────────────────────────────

async function promotionsBuilder(db: Queryable, p: ReportParams): Promise<ReportBuilder> {
  const { scope, names, total, fx } = await historyContext(db, p, countPromotions);
  const columns: ReportColumn[] = [
    { header: 'eCommerce', kind: 'text', width: 18 },
    { header: 'ID eCommerce', kind: 'text', width: 16 },
    { header: 'SKU', kind: 'text', width: 16 },
    { header: 'Producto', kind: 'text', width: 40 },
    { header: 'Marca', kind: 'text', width: 18 },
    { header: 'Clasificación', kind: 'text', width: 22 },
    { header: 'Formato', kind: 'text', width: 16 },
    { header: 'Primer día', kind: 'date', width: 12 },
    { header: 'Último día', kind: 'date', width: 12 },
    { header: 'En curso', kind: 'text', width: 9 },
    { header: 'Días en el rango', kind: 'int' },
    { header: `Precio normal (${p.currency})`, kind: 'money' },
    { header: 'Precio promoción', kind: 'money' },
    { header: 'Descuento (%)', kind: 'percent' },
  ];
  const dayMs = 86_400_000;
  return {
    sheetName: 'Promociones',
    columns,
    total,
    async *batches() {
      const pages = keysetPages(
        (after) => selectPromotions(db, scope, after, BATCH_SIZE),
        (r) => r.id,
      );
      for await (const rows of pages) {
        yield rows.map((r) => {
          const day = clampDay(r.first_day, p.from, p.to);
          const first = r.first_day < p.from ? p.from : r.first_day;
          const last = r.last_day === null || r.last_day > p.to ? p.to : r.last_day;
          const normal = fx.convert(r.normal_price, r.currency, p.currency, day);
          const promo = fx.convert(r.promo_price, r.currency, p.currency, day);
          const discount = round2(discountPercent(r.normal_price, r.promo_price));
          return [
            names.get(r.seller_id) ?? String(r.seller_id),
            r.product_id,
            r.sku,
            productDisplayName(r.name),
            r.brand,
            r.class_name,
            priceTypeLabel(r.price_type as PriceType),
            r.first_day,
            r.last_day,
            yesNo(r.last_day === null),
            Math.round((Date.parse(last) - Date.parse(first)) / dayMs) + 1,
            normal,
            promo,
            discount,
          ];
        });
      }
    },
  };
}

// ───────────────────────────── assortment ─────────────────────────────

async function assortmentBuilder(db: Queryable, p: ReportParams): Promise<ReportBuilder> {
  const scope = historyScope(p);
  const [names, rows] = await Promise.all([
    sellerNames(db, scope.sellers),
    selectAssortment(db, scope, await dayZone(db, scope.zone)),
  ]);
  await ratesOrFail(db, p.currency, p.to); // the currency has a rate (else the report fails, said)
  // each row describes one day (its state): converted at the rate in force that day
  // (a seller's state day may precede the range when it had no run in it)
  const since = rows.reduce((m, r) => (r.day < m ? r.day : m), p.from);
  const fx = await loadFx(db, [p.currency, ...new Set(rows.map((r) => r.currency))], since, p.to);
  const totals = new Map<number, number>();
  for (const r of rows) totals.set(r.seller_id, (totals.get(r.seller_id) ?? 0) + r.published);
  const columns: ReportColumn[] = [
    { header: 'eCommerce', kind: 'text', width: 18 },
    { header: 'Marca', kind: 'text', width: 22 },
    { header: 'Día del estado', kind: 'date', width: 12 },
    { header: 'Productos publicados', kind: 'int' },
    { header: 'Con stock', kind: 'int' },
    { header: `Valor total (${p.currency})`, kind: 'money' },
    { header: 'Precio promedio', kind: 'money' },
    { header: 'Participación (%)', kind: 'percent' },
    { header: 'Nuevos en el rango', kind: 'int' },
    { header: 'Despublicados en el rango', kind: 'int' },
    { header: 'Quiebres de stock en el rango', kind: 'int' },
    { header: 'Reposiciones en el rango', kind: 'int' },
  ];
  return {
    sheetName: 'Surtido',
    columns,
    total: rows.length,
    async *batches() {
      for (let i = 0; i < rows.length; i += BATCH_SIZE) {
        yield rows.slice(i, i + BATCH_SIZE).map((r) => {
          // Surtido's value (docs/metrics.md "Assortment"): the exact sum converted, rounded to cents once
          const f = fx.rateText(r.currency, r.day);
          const to = fx.rateText(p.currency, r.day);
          const converted = f !== null && to !== null;
          const value = new ConvertedSum();
          if (converted) value.add(r.effective_price_sum, f);
          return [
            names.get(r.seller_id) ?? String(r.seller_id),
            r.brand ?? 'Sin marca',
            r.day,
            r.published,
            r.in_stock,
            converted ? value.rounded(to) : null,
            !converted || r.priced === 0 ? null : value.rounded(to, r.priced),
            round2(share(r.published, totals.get(r.seller_id) ?? 0)) ?? 0,
            r.new_listings,
            r.unpublished,
            r.went_out_of_stock,
            r.back_in_stock,
          ];
        });
      }
    },
  };
}

const BUILDERS: Record<ReportType, (db: Queryable, p: ReportParams) => Promise<ReportBuilder>> = {
  match: matchBuilder,
  prices: pricesBuilder,
  promotions: promotionsBuilder,
  assortment: assortmentBuilder,
};

/**
 * Every amount column says which currency it is in (issue 25): a money column's header ends with the
 * report's currency, '(CLP)', unless the builder already wrote it.
 */
export const moneyHeader = (header: string, currency: string) =>
  header.endsWith(`(${currency})`) ? header : `${header} (${currency})`;

export async function reportBuilder(db: Queryable, p: ReportParams): Promise<ReportBuilder> {
  const b = await BUILDERS[p.report_type](db, p);
  b.columns = b.columns.map((c) =>
    c.kind === 'money' ? { ...c, header: moneyHeader(c.header, p.currency) } : c,
  );
  return b;
}

import {
  discountPercent,
  type Filters,
  PROMOTION_KIND_PRICE_TYPE,
  type PromotionItemsResponse,
  type PromotionOneClassBody,
  type PromotionPricesBody,
  type PromotionPricesResponse,
  type PromotionRangeResponse,
  type PromotionScatterResponse,
  round2,
  type ScatterBody,
  share,
} from '@vigia/domain';
import type { FastifyRequest } from 'fastify';
import type pg from 'pg';
import { badRequest } from '../../lib/errors.js';
import { type FxTable, loadFx } from '../../market/index.js';
import { readModelsOf } from '../../platform/read-model.js';
import { rangeOf, scatterOf, typeOf } from './chart-pool.js';
import { runningGroups, type WindowScope } from './distribution.js';
import { currenciesOf, dayNumber, dayString, type SellerSpans, sellerSpans } from './model.js';
import {
  classificationsOfListings,
  type ScopeValues,
  selectDrilldown,
  selectDrilldownTotals,
  selectDurations,
  selectDurationsAtFirstDay,
  selectTypeDays,
  selectTypePrices,
  selectWeeks,
  type TypePricesRow,
} from './queries.js';
import { levelItems, type PromoScope, pricesOut, resolvePromoScope, typeItems, weeksOf } from './service.js';

// The answers of the promotions endpoints (routes.ts serves them; download.ts turns them into XLSX).

// Whole answers are memoised per process by (endpoint, resolved scope, parameters) at the market's data
// version (the read-model holder, platform/read-model.ts: the version moves with every ingest run, match
// decision and deletion of products). The license and the scope are checked on every request before the
// memo is consulted (resolvePromoScope).
const MEMO_SIZE = 64;

function remembered<T extends object>(pool: pg.Pool, key: unknown[], make: () => Promise<T>): Promise<T> {
  return readModelsOf(pool).memo<T>('promotions-answers', MEMO_SIZE).answer(key, make);
}

/** The memo key of a scope: what the answer depends on. */
const scopeKey = (s: PromoScope) => [
  s.values.sellers,
  s.values.asked,
  s.values.from,
  s.values.to,
  s.currency,
  s.values.zone,
];

export async function levelAnswer(
  req: FastifyRequest,
  pool: pg.Pool,
  body: Filters,
): Promise<PromotionItemsResponse> {
  const scope = await resolvePromoScope(req, pool, body);
  return remembered(pool, ['level', ...scopeKey(scope)], async () => {
    const { items, spikes } = levelItems(scope, await selectWeeks(pool, scope.values));
    return {
      from_date: scope.values.from,
      to_date: scope.values.to,
      currency: scope.currency,
      items,
      spikes,
    };
  });
}

export async function typeAnswer(
  req: FastifyRequest,
  pool: pg.Pool,
  body: Filters,
): Promise<PromotionItemsResponse> {
  const scope = await resolvePromoScope(req, pool, body);
  return remembered(pool, ['type', ...scopeKey(scope)], async () => {
    const [days, prices] = await Promise.all([selectTypeDays(pool, scope.values), typePricesOf(pool, scope)]);
    return {
      from_date: scope.values.from,
      to_date: scope.values.to,
      currency: scope.currency,
      items: typeItems(scope, days, prices),
    };
  });
}

/**
 * The type screen's promotions and average prices: in CLP from the cumulative rows (queries.ts
 * selectTypePrices, two index probes per key); in another currency each promotion converts at its own
 * first day's rates, which those sums cannot give, so the window's promotions are read from the
 * in-memory copy (distribution.ts typeChart, in the chart threads) — over promo_spans it was 1–2 s for
 * all roots on the medium market.
 */
async function typePricesOf(pool: pg.Pool, scope: PromoScope): Promise<TypePricesRow[]> {
  if (scope.currency === 'CLP') return selectTypePrices(pool, scope.values);
  const [models, window] = await windowOf(pool, scope);
  return typeOf(models, window);
}

export async function durationAnswer(
  req: FastifyRequest,
  pool: pg.Pool,
  body: PromotionOneClassBody,
): Promise<PromotionItemsResponse> {
  const scope = await resolvePromoScope(req, pool, body, [body.classification]);
  return remembered(pool, ['duration', ...scopeKey(scope)], async () => {
    // the running promotions do not depend on the window (but through their first day): grouped from the
    // in-memory copies (distribution.ts runningGroups) and kept per scope and data version, so that a new
    // window reads only the cumulative rows
    const v = scope.values;
    const rows =
      v.currency === 'CLP'
        ? await selectDurations(
            pool,
            v,
            await remembered(pool, ['duration-running', v.sellers, v.asked[0], v.zone], async () =>
              runningGroups(await sellerSpans(pool, v.sellers, v.zone), v.leaves, currenciesOf(pool)),
            ),
          )
        : await selectDurationsAtFirstDay(pool, v);
    const cls = scope.classes[0];
    return {
      from_date: scope.values.from,
      to_date: scope.values.to,
      currency: scope.currency,
      items: scope.sellers.map((seller) => {
        const own = rows.filter((r) => r.seller_id === seller.id);
        const total = own.reduce((n, r) => n + r.count, 0);
        return {
          seller,
          classifications: [
            {
              id: cls.id,
              name: cls.name,
              total,
              days: own.map((r) => ({
                day: r.day,
                percentage: round2(share(r.count, total)) ?? 0,
                count: r.count,
                running: r.running,
                prices: pricesOut(r),
              })),
            },
          ],
        };
      }),
    };
  });
}

/** The scope of the in-memory promotions (model.ts) and its sellers' copies in its zone, fresh. */
async function windowOf(pool: pg.Pool, scope: PromoScope): Promise<[SellerSpans[], WindowScope]> {
  // the rates in parallel with the copies' versions (not after them: one round trip more per chart)
  const [models, rates] = await Promise.all([
    sellerSpans(pool, scope.values.sellers, scope.values.zone),
    ratesUpTo(pool, scope.values),
  ]);
  return [models, windowScopeOf(pool, models, scope.values, rates)];
}

/**
 * Every rate up to the window's end (the market core's loadFx: a few rows per currency and day) of the
 * currencies with a rate by then (`curs`, selectScopeFacts: any other has none on any day before).
 */
export const ratesUpTo = (pool: pg.Pool, v: Pick<ScopeValues, 'curs' | 'to'>): Promise<FxTable> =>
  loadFx(pool, v.curs, '1970-01-01', v.to);

/**
 * What the charts read of a scope over the copies `models` (distribution.ts WindowScope), with `rates`
 * (ratesUpTo, read after the copies: it knows their currencies).
 */
export function windowScopeOf(
  pool: pg.Pool,
  models: SellerSpans[],
  v: ScopeValues,
  rates: FxTable,
): WindowScope {
  const to = dayNumber(v.to);
  let day0 = to;
  for (const s of models) if (s.minFirst < day0) day0 = s.minFirst;
  const span = to - day0 + 1;
  return {
    leaves: v.leaves,
    classes: v.classes,
    from: dayNumber(v.from),
    to,
    fx: fxTable(rates, currenciesOf(pool), v.currency, day0, span),
    day0,
    span,
    fxKey: v.currency,
  };
}

/**
 * The factors of WindowScope.fx: for each currency of the copies and each day of [day0, day0 + span),
 * its factor to `target` at the rates in force that day (`rates.rate`: the latest rate on or before it)
 * — a price × factor is the price in `target` on that day; 1 in `target` itself; NaN when either rate is
 * missing. The SQL twin is queries.ts FIRST_DAY_FACTOR (the drill-downs, type and duration averages).
 */
function fxTable(
  rates: FxTable,
  currencies: string[],
  target: string,
  day0: number,
  span: number,
): Float64Array {
  const fx = new Float64Array(currencies.length * span);
  for (let d = 0; d < span; d++) {
    const day = dayString(day0 + d);
    const t = rates.rate(target, day) ?? Number.NaN;
    currencies.forEach((c, ci) => {
      fx[ci * span + d] = c === target ? 1 : (rates.rate(c, day) ?? Number.NaN) / t;
    });
  }
  return fx;
}

export async function rangeAnswer(
  req: FastifyRequest,
  pool: pg.Pool,
  body: PromotionOneClassBody,
): Promise<PromotionRangeResponse> {
  const scope = await resolvePromoScope(req, pool, body, [body.classification]);
  return remembered(pool, ['range', ...scopeKey(scope), body.range], async () => {
    const ranges = body.range;
    const [models, window] = await windowOf(pool, scope);
    const { points, counts } = await rangeOf(models, window, ranges);
    const cls = scope.classes[0];
    return {
      from_date: scope.values.from,
      to_date: scope.values.to,
      currency: scope.currency,
      items: [
        {
          classification: cls,
          range_points: points,
          sellers: scope.sellers.map((s) => {
            const own = counts.filter((c) => c.seller_id === s.id);
            const total = own.reduce((n, c) => n + c.count, 0);
            const prices = Array.from({ length: ranges }, (_, i) => {
              const count = own
                .filter((c) => Math.min(ranges, c.range) === i + 1)
                .reduce((n, c) => n + c.count, 0);
              return { price: round2(share(count, total)) ?? 0, count };
            });
            return { ...s, total, prices };
          }),
        },
      ],
    };
  });
}

/** Products named in each scatter point when simple=false. */
const SCATTER_SAMPLE = 5;
/** Names kept for the scatter plot's samples (per data version), at most. */
const NAMES_KEPT = 50_000;

/**
 * The names of the listings `ids` (a scatter plot's samples: ~1,500 for all roots on the large market, a
 * query of ~7–11 ms). Kept per data version in the answers' memo: another window of the same question names
 * mostly the same listings (the first of each bucket), so only the new ones are read. Its own memo (not
 * kept across a restart): one map, dropped with the data version as every answer is.
 */
async function productNames(pool: pg.Pool, ids: number[]): Promise<Map<number, string>> {
  const known = await readModelsOf(pool)
    .memo<Map<number, string>>('promotions-scatter-names', 1)
    .answer([], async () => new Map<number, string>());
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) {
    const { rows } = await pool.query<{ id: number; name: string | null }>(
      'select id::int as id, name from products where id = any($1::bigint[])',
      [missing],
    );
    if (known.size + missing.length > NAMES_KEPT) known.clear();
    for (const id of missing) known.set(id, '');
    for (const n of rows) known.set(n.id, n.name ?? '');
  }
  return known;
}

export async function scatterAnswer(
  req: FastifyRequest,
  pool: pg.Pool,
  body: ScatterBody,
): Promise<PromotionScatterResponse> {
  const scope = await resolvePromoScope(req, pool, body);
  return remembered(pool, ['scatter', ...scopeKey(scope), body.simple], async () => {
    const [models, window] = await windowOf(pool, scope);
    const { width, rows } = await scatterOf(models, window, body.simple ? 0 : SCATTER_SAMPLE);
    const names = await productNames(pool, [...new Set(rows.flatMap((r) => r.ids ?? []))]);
    return {
      from_date: scope.values.from,
      to_date: scope.values.to,
      currency: scope.currency,
      bucket: width,
      items: scope.sellers.map((seller) => ({
        seller,
        prices: rows
          .filter((r) => r.seller_id === seller.id)
          .map((r) => ({
            price: round2(r.price),
            count: r.count,
            ...(body.simple
              ? {}
              : { data: (r.ids ?? []).map((id) => ({ id: Number(id), name: names.get(Number(id)) ?? '' })) }),
          })),
      })),
    };
  });
}

export async function pricesAnswer(
  req: FastifyRequest,
  pool: pg.Pool,
  body: PromotionPricesBody,
): Promise<PromotionPricesResponse> {
  // a promotion alert names its listings: their classifications are the scope (license-checked as any)
  const products = body.products?.length ? body.products : null;
  const classes = body.classification
    ? [body.classification]
    : await classificationsOfListings(pool, body.seller_id, products ?? []);
  const scope = await resolvePromoScope(
    req,
    pool,
    { ...body, sellersIds: [body.seller_id], sellers: undefined },
    classes,
  );
  // the drilled seller may be the pivot itself
  scope.values.sellers = scope.values.sellers.filter((s) => s === body.seller_id);
  let a = scope.values.from;
  let b = scope.values.to;
  if (body.promotion === 'level' && body.week) {
    const week = weeksOf(scope.values.from, scope.values.to).find((w) => w.week === body.week);
    if (!week) throw badRequest('week: la semana no está en el período (lunes, yyyy-MM-dd)', 'week');
    a = week.from;
    b = week.to;
  }
  const q = {
    a,
    b,
    duration: body.promotion === 'duration' ? body.day : undefined,
    priceType: body.promotion === 'type' && body.kind ? PROMOTION_KIND_PRICE_TYPE[body.kind] : undefined,
    limit: body.limit,
    offset: body.offset,
    products,
  };
  // memoised like the charts: the drill-down's page changes only with the data version
  return remembered(
    pool,
    [
      'prices',
      ...scopeKey(scope),
      a,
      b,
      q.duration ?? null,
      q.priceType ?? null,
      q.limit,
      q.offset,
      products?.join(',') ?? null,
    ],
    async () => {
      const rows = await selectDrilldown(pool, scope.values, q);
      const totals = rows.length
        ? { total: rows[0].total, total_days: rows[0].total_days, products: rows[0].products }
        : await selectDrilldownTotals(pool, scope.values, q);
      const sellerNames = new Map(scope.sellers.map((s) => [s.id, s.name]));
      return {
        from_date: a,
        to_date: b,
        currency: scope.currency,
        ...totals,
        items: rows.map((r) => ({
          id: r.id,
          product_id: r.product_id,
          name: r.name ?? '',
          url: r.url,
          seller: { id: r.seller_id, name: sellerNames.get(r.seller_id) ?? '' },
          price_type: r.price_type,
          normal_price: r.normal === null ? null : round2(r.normal),
          promotion_price: r.promo === null ? null : round2(r.promo),
          discount: round2(discountPercent(r.normal, r.promo)),
          first_day: r.first_day,
          last_day: r.end_day,
          running: r.running,
          days: r.days,
        })),
      };
    },
  );
}

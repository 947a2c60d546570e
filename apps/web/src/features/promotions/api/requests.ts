import {
  promotionsRoutes as defs,
  type Filters,
  PROMOTION_FILE,
  PROMOTION_RANGE,
  type PromotionDrilldown,
  type PromotionKind,
  xlsxFileName,
} from '@vigia/domain';
import { callRoute, downloadRoute } from '../../../lib/api-client.js';

// The promotions calls (seed 001 §7 "Promotions"; route table packages/domain/src/routes/promotions.ts):
// POST, payload = the validated filters, module header 'promotions' (from the route), pivot header.
// Duration and range send one call per selected classification, with `classification` set and range 4.

export interface CallOptions {
  pivotId: number | null;
  signal?: AbortSignal;
}

export function fetchLevel(filters: Filters, o: CallOptions) {
  return callRoute(defs.level, { body: filters }, o);
}

export function fetchType(filters: Filters, o: CallOptions) {
  return callRoute(defs.type, { body: filters }, o);
}

export function fetchDuration(filters: Filters, classification: number, o: CallOptions) {
  return callRoute(defs.duration, { body: { ...filters, classification, range: PROMOTION_RANGE } }, o);
}

export function fetchRange(filters: Filters, classification: number, o: CallOptions) {
  return callRoute(defs.range, { body: { ...filters, classification, range: PROMOTION_RANGE } }, o);
}

export function fetchScatter(filters: Filters, o: CallOptions) {
  return callRoute(defs.scatterPlot, { body: { ...filters, simple: false } }, o);
}

/** What a drill-down opens: the promotions behind one number of a screen. */
export interface DrillTarget {
  promotion: PromotionDrilldown;
  sellerId: number;
  sellerName: string;
  /** Absent for an alert's products (their own classifications are the scope). */
  classification?: number;
  classificationName: string;
  /** Only these listings (a promotion alert's link: ?seller=…&products=…; issue 31 item 5). */
  products?: number[];
  week?: string;
  day?: number;
  kind?: PromotionKind;
  /** What the user clicked, for the dialog's title. */
  label: string;
  /** The clicked percentage's product-days (level, type): the dialog shows the list adds up to them. */
  cell?: { promoted: number; published: number };
}

export function drillBody(filters: Filters, t: DrillTarget) {
  return {
    ...filters,
    promotion: t.promotion,
    seller_id: t.sellerId,
    classification: t.classification,
    week: t.week,
    day: t.day,
    kind: t.kind,
    products: t.products,
  };
}

export function fetchPrices(
  filters: Filters,
  t: DrillTarget,
  page: { limit: number; offset: number },
  o: CallOptions,
) {
  return callRoute(defs.prices, { body: { ...drillBody(filters, t), ...page } }, o);
}

const dateOf = (v: unknown) => (typeof v === 'string' ? v : null);

/** The screens' tables as XLSX (`promotion` = the screen, or 'prices' for a drill-down). */
export function downloadPromotions(
  promotion: 'level' | 'duration' | 'type' | 'range' | 'scatter-plot' | 'prices',
  body: Record<string, unknown>,
  pivotId: number | null,
) {
  // the server names the file (Content-Disposition); the fallback is its name without the filters
  const name = xlsxFileName(PROMOTION_FILE[promotion], [], dateOf(body.from_date), dateOf(body.to_date));
  return downloadRoute(defs.download, { body: { ...body, promotion } }, name, {
    pivotId,
  });
}

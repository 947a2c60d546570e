import {
  type Filters,
  PROMOTION_RANGE,
  type PromotionDrilldown,
  type PromotionKind,
  promotionItemsResponse,
  promotionPricesResponse,
  promotionRangeResponse,
  promotionScatterResponse,
} from '@vigia/domain';
import { apiDownload, apiPost } from '../../../lib/api-client.js';

// The promotions calls (seed 001 §7 "Promotions"; contract packages/domain/src/promotions.ts): POST,
// payload = the validated filters, module header 'promotions', pivot header. Duration and range send one
// call per selected classification, with `classification` set and range 4.

export interface CallOptions {
  pivotId: number | null;
  signal?: AbortSignal;
}

const opts = <T>(o: CallOptions, schema: T) => ({
  module: 'promotions' as const,
  pivotId: o.pivotId,
  signal: o.signal,
  schema,
});

export function fetchLevel(filters: Filters, o: CallOptions) {
  return apiPost('/v1/promotion/level', filters, opts(o, promotionItemsResponse));
}

export function fetchType(filters: Filters, o: CallOptions) {
  return apiPost('/v1/promotion/type', filters, opts(o, promotionItemsResponse));
}

export function fetchDuration(filters: Filters, classification: number, o: CallOptions) {
  return apiPost(
    '/v1/promotion/duration',
    { ...filters, classification, range: PROMOTION_RANGE },
    opts(o, promotionItemsResponse),
  );
}

export function fetchRange(filters: Filters, classification: number, o: CallOptions) {
  return apiPost(
    '/v1/promotion/range',
    { ...filters, classification, range: PROMOTION_RANGE },
    opts(o, promotionRangeResponse),
  );
}

export function fetchScatter(filters: Filters, o: CallOptions) {
  return apiPost(
    '/v1/promotion/scatter-plot',
    { ...filters, simple: false },
    opts(o, promotionScatterResponse),
  );
}

/** What a drill-down opens: the promotions behind one number of a screen. */
export interface DrillTarget {
  promotion: PromotionDrilldown;
  sellerId: number;
  sellerName: string;
  classification: number;
  classificationName: string;
  week?: string;
  day?: number;
  kind?: PromotionKind;
  /** What the user clicked, for the dialog's title. */
  label: string;
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
  };
}

export function fetchPrices(
  filters: Filters,
  t: DrillTarget,
  page: { limit: number; offset: number },
  o: CallOptions,
) {
  return apiPost(
    '/v1/promotion/prices',
    { ...drillBody(filters, t), ...page },
    opts(o, promotionPricesResponse),
  );
}

/** The screens' tables as XLSX (`promotion` = the screen, or 'prices' for a drill-down). */
export function downloadPromotions(
  promotion: 'level' | 'duration' | 'type' | 'range' | 'scatter-plot' | 'prices',
  body: Record<string, unknown>,
  pivotId: number | null,
) {
  return apiDownload(
    '/v1/promotion/download',
    { body: { ...body, promotion } },
    `promociones_${promotion}.xlsx`,
    { module: 'promotions', pivotId },
  );
}

import { z } from 'zod';
import { calendarDate } from './dates.js';
import { filtersObject, listParam, withFilterChecks } from './filters.js';

// Promotions API contract (seed 001 §3 "Promotions item", "Range chart data", "Scatter data"; §7
// "Promotions"). Every call is a POST whose body is the validated filters (filters.ts) plus the few
// fields of its own below; the module header is 'promotions'. Definitions: docs/metrics.md "Promotions".

/** Range promotions use range 4 (seed 001 §9). */
export const PROMOTION_RANGE = 4;
/** Promotion search type 3 uses an expiration date 90 days before today (seed 001 §7): the default window. */
export const PROMOTION_SEARCH_TYPE_DAYS = 90;
/** Longest window a promotions call accepts (days, inclusive). */
export const PROMOTION_MAX_DAYS = 400;
/** Bubble radius of the scatter plot (seed 001 §2). */
export const PROMOTION_BUBBLE_RADIUS = 7;

export const PROMOTION_SCREENS = ['level', 'duration', 'type', 'range', 'scatter-plot'] as const;
export type PromotionScreen = (typeof PROMOTION_SCREENS)[number];
/** The `promotion` of a /prices (drill-down) call (seed 001 §7). */
export const PROMOTION_DRILLDOWNS = ['level', 'duration', 'type'] as const;
export type PromotionDrilldown = (typeof PROMOTION_DRILLDOWNS)[number];
/** The three kinds of promotion of the by-type screen and their price types. */
export const PROMOTION_KINDS = ['exclusive', 'quantity', 'sale'] as const;
export type PromotionKind = (typeof PROMOTION_KINDS)[number];
export const PROMOTION_KIND_PRICE_TYPE = {
  exclusive: 'EXCLUSIVE',
  quantity: 'BYQUANTITY',
  sale: 'SALE',
} as const satisfies Record<PromotionKind, string>;

const id = z.coerce.number().int().positive().max(2_147_483_647);
const day = z
  .string()
  .max(40)
  .transform((s) => s.slice(0, 10))
  .pipe(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'fecha inválida (yyyy-MM-dd)'));

/** A window bound: an existing calendar day (a longer string is cut to 10 characters); '' = absent. */
const windowDay = z
  .preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    calendarDate.transform((s) => s.slice(0, 10)).optional(),
  )
  .optional();
/** The shared filters with calendar-checked window bounds (a day that does not exist is a 400 on its field). */
const promoFilters = filtersObject.extend({ from_date: windowDay, to_date: windowDay });

/** Body of level, type and scatter-plot: the filters (classificationsIds required, checked by the server). */
export const promotionBody = withFilterChecks(promoFilters);
export type PromotionBody = z.output<typeof promotionBody>;

/** Body of duration and range: one classification per call (the web sends one call per selection). */
export const promotionOneClassBody = withFilterChecks(
  promoFilters.extend({
    classification: id,
    /** Number of price ranges (range promotions use 4). */
    range: z.coerce.number().int().min(2).max(10).default(PROMOTION_RANGE),
  }),
);
export type PromotionOneClassBody = z.output<typeof promotionOneClassBody>;

export const scatterBody = withFilterChecks(
  promoFilters.extend({
    /** simple=false: every point carries the products behind it (`data`). */
    simple: z
      .preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean())
      .default(false),
  }),
);
export type ScatterBody = z.output<typeof scatterBody>;

/** Listings a drill-down may name (`products`): a promotion alert's link carries at most these. */
export const PROMOTION_PRODUCTS_MAX = 500;

/** The drill-down: which promotions a number of a screen counts. */
export const promotionPricesBody = withFilterChecks(
  promoFilters.extend({
    promotion: z.enum(PROMOTION_DRILLDOWNS),
    seller_id: id,
    /** Required unless `products` names the listings (their classifications are then the scope). */
    classification: id.optional(),
    /**
     * Only these listings of the seller (a promotion alert's products; issue 31 item 5). With it, level
     * needs no week: the window (from_date … to_date) is the period listed.
     */
    products: listParam(id, PROMOTION_PRODUCTS_MAX),
    /** level: the week (its Monday, yyyy-MM-dd). */
    week: day.optional(),
    /** duration: the duration in days. */
    day: z.coerce.number().int().min(1).max(1000).optional(),
    /** type: which kind. */
    kind: z.enum(PROMOTION_KINDS).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(50),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  }),
).superRefine((b, ctx) => {
  if (!b.classification && !b.products?.length)
    ctx.addIssue({ code: 'custom', path: ['classification'], message: 'classification: requerido' });
  if (b.promotion === 'level' && !b.week && !b.products?.length)
    ctx.addIssue({ code: 'custom', path: ['week'], message: 'week: requerido para promotion=level' });
  if (b.promotion === 'duration' && !b.day)
    ctx.addIssue({ code: 'custom', path: ['day'], message: 'day: requerido para promotion=duration' });
  if (b.promotion === 'type' && !b.kind)
    ctx.addIssue({ code: 'custom', path: ['kind'], message: 'kind: requerido para promotion=type' });
});
export type PromotionPricesBody = z.output<typeof promotionPricesBody>;

// ───────────────────────────── answers ─────────────────────────────

export const promotionSeller = z.object({ id: z.number(), name: z.string(), color: z.string() });

/** Average prices of the promotions counted, in the requested currency (null: none). */
export const promotionPrices = z.object({
  normal: z.number().nullable(),
  promotion: z.number().nullable(),
  /** Average 100 × (normal − promotion) / normal over those with both (%). */
  discount: z.number().nullable(),
});
export type PromotionPrices = z.infer<typeof promotionPrices>;

export const promotionWeek = z.object({
  /** Monday of the week (yyyy-MM-dd, America/Santiago). */
  week: z.string(),
  /** First and last day of the week inside the window. */
  from: z.string(),
  to: z.string(),
  percentage: z.number().nullable(),
  /** Numerator: listing-days on promotion. */
  promoted: z.number(),
  /** Denominator: listing-days published. */
  published: z.number(),
  /** The week stands out from the seller's other weeks (docs/metrics.md). */
  spike: z.boolean(),
});
export type PromotionWeek = z.infer<typeof promotionWeek>;

export const promotionDuration = z.object({
  /** Duration in days. */
  day: z.number(),
  percentage: z.number(),
  /** Numerator: promotions lasting `day` days. */
  count: z.number(),
  /** Of those, still running at the seller's latest crawl. */
  running: z.number(),
  prices: promotionPrices,
});
export type PromotionDuration = z.infer<typeof promotionDuration>;

export const promotionKindFigures = z.object({
  percentage: z.number().nullable(),
  /** Numerator: listing-days on this kind of promotion. */
  promoted: z.number(),
  /** Promotions (spans) of this kind, whose prices are averaged. */
  count: z.number(),
  prices: promotionPrices,
});
export type PromotionKindFigures = z.infer<typeof promotionKindFigures>;

export const promotionClassification = z.object({
  id: z.number(),
  name: z.string(),
  /** level */
  weeks: z.array(promotionWeek).optional(),
  /** duration */
  days: z.array(promotionDuration).optional(),
  /** Duration: every promotion counted (denominator). */
  total: z.number().optional(),
  /** type */
  exclusive: promotionKindFigures.optional(),
  quantity: promotionKindFigures.optional(),
  sale: promotionKindFigures.optional(),
  /** type: listing-days published (the denominator of the three percentages). */
  published: z.number().optional(),
});
export type PromotionClassification = z.infer<typeof promotionClassification>;

/** The seed's Promotions item: seller (id, name, color) with classifications (id, name). */
export const promotionItem = z.object({
  seller: promotionSeller,
  classifications: z.array(promotionClassification),
});
export type PromotionItem = z.infer<typeof promotionItem>;

const windowOut = { from_date: z.string(), to_date: z.string(), currency: z.string() };

export const promotionItemsResponse = z.object({
  ...windowOut,
  items: z.array(promotionItem),
  /** level: weeks where the market (all the sellers asked) stands out. */
  spikes: z.array(z.object({ week: z.string(), percentage: z.number() })).optional(),
});
export type PromotionItemsResponse = z.infer<typeof promotionItemsResponse>;

/** The seed's Range chart data: classification; sellers (id, prices with price); range_points. */
export const rangeChartData = z.object({
  classification: z.object({ id: z.number(), name: z.string() }),
  /** range + 1 boundaries: range i is 'Precios desde range_points[i] hasta range_points[i + 1]'. */
  range_points: z.array(z.number()),
  sellers: z.array(
    promotionSeller.extend({
      total: z.number(),
      /** One per range: `price` = share (%) of the seller's promotions in that range; count = how many. */
      prices: z.array(z.object({ price: z.number(), count: z.number() })),
    }),
  ),
});
export type RangeChartData = z.infer<typeof rangeChartData>;
export const promotionRangeResponse = z.object({ ...windowOut, items: z.array(rangeChartData) });
export type PromotionRangeResponse = z.infer<typeof promotionRangeResponse>;

/** The seed's Scatter data: prices with price, count, data — per seller. */
export const scatterPoint = z.object({
  /** Lower bound of the price bucket (bucket width: `bucket`). */
  price: z.number(),
  /** Promotions with a promotion price in the bucket. */
  count: z.number(),
  /** simple=false: a few of the products behind the point. */
  data: z.array(z.object({ id: z.number(), name: z.string() })).optional(),
});
export const scatterSeller = z.object({ seller: promotionSeller, prices: z.array(scatterPoint) });
export const promotionScatterResponse = z.object({
  ...windowOut,
  bucket: z.number(),
  items: z.array(scatterSeller),
});
export type PromotionScatterResponse = z.infer<typeof promotionScatterResponse>;

export const promotionProduct = z.object({
  /** products.id: the detail page is /app/product/{id}. */
  id: z.number(),
  product_id: z.string(),
  name: z.string(),
  url: z.string().nullable(),
  seller: z.object({ id: z.number(), name: z.string() }),
  price_type: z.string(),
  normal_price: z.number().nullable(),
  promotion_price: z.number().nullable(),
  discount: z.number().nullable(),
  first_day: z.string(),
  /** Last day on promotion (the seller's latest crawl when still running). */
  last_day: z.string(),
  running: z.boolean(),
  /** Days of this promotion the drilled number counts (inside the week or window). */
  days: z.number(),
});
export type PromotionProduct = z.infer<typeof promotionProduct>;

export const promotionPricesResponse = z.object({
  ...windowOut,
  /** Promotions listed (all pages). */
  total: z.number(),
  /** Σ days over all pages: equals the drilled percentage's numerator for level and type. */
  total_days: z.number(),
  /** Distinct listings among the promotions listed (a listing may have two promotions in a week). */
  products: z.number(),
  items: z.array(promotionProduct),
});
export type PromotionPricesResponse = z.infer<typeof promotionPricesResponse>;

/** XLSX download of any promotions table: the body of the call it downloads plus which one. */
export const promotionDownloadBody = promoFilters.extend({
  promotion: z.enum([...PROMOTION_SCREENS, 'prices']),
  range: z.coerce.number().int().min(2).max(10).optional(),
  simple: z.boolean().optional(),
  /** prices: the drill-down's own `promotion` (level, duration or type). */
  drilldown: z.enum(PROMOTION_DRILLDOWNS).optional(),
  seller_id: id.optional(),
  classification: id.optional(),
  /** prices: only these listings (a promotion alert's drill-down). */
  products: listParam(id, PROMOTION_PRODUCTS_MAX),
  week: day.optional(),
  day: z.coerce.number().int().min(1).max(1000).optional(),
  kind: z.enum(PROMOTION_KINDS).optional(),
});

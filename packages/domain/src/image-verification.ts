import { z } from 'zod';
import { timezoneSchema } from './account.js';
import { IMAGE_VERIFICATION } from './constants.js';
import { calendarDay } from './dates.js';
import { listParam, numberParam, parseSkus, SKUS_MAX, SKUS_TEXT_MAX } from './filters.js';

// Contract of image verification (seed 001 §7 "Image verification", §9 constants; issue 15). The measure
// and the classes: docs/metrics.md "Image verification".
//
//   GET /v1/image-verification/items         imageItemsQuery  → imageItemsResponse (25 per page)
//   GET /v1/image-verification/kpis          imageKpisQuery   → imageKpis
//   GET /v1/image-verification/items.xlsx    imageXlsxQuery   → XLSX file (authToken in the query)
//   GET /v1/image-verification/check?id=     → imageCheckDetail (the dialog: scores and difference map)
//   PUT /v1/image-verification/review        imageReviewBody {id, decision} → imageCheckDetail
//   GET /v1/image-verification/pictures/:file    the demo market's raster pictures (public, immutable)

export const IMAGE_CLASSES = ['correct', 'forReview', 'incorrect', 'pending'] as const;
export type ImageClass = (typeof IMAGE_CLASSES)[number];
export const IMAGE_CLASS_LABELS: Record<ImageClass, string> = {
  correct: 'Correcta',
  forReview: 'Para revisión',
  incorrect: 'Incorrecta',
  pending: 'Sin medir',
};
export const IMAGE_REVIEW_DECISIONS = ['accepted', 'wrong'] as const;
export type ImageReviewDecision = (typeof IMAGE_REVIEW_DECISIONS)[number];
export const IMAGE_REVIEW_LABELS: Record<ImageReviewDecision, string> = {
  accepted: 'Aceptada',
  wrong: 'Incorrecta (revisada)',
};
export const IMAGE_MAX_PAGE_SIZE = 200;
/** Rows of one XLSX download. */
export const IMAGE_XLSX_MAX_ROWS = 10_000;

/**
 * The class of a similarity (docs/metrics.md): correct ≥ correctThreshold, incorrect < incorrectThreshold,
 * for review in between; null (not measured yet) = pending.
 */
export function classifySimilarity(
  similarity: number | null,
  correctThreshold: number = IMAGE_VERIFICATION.correctThreshold,
  incorrectThreshold: number = IMAGE_VERIFICATION.incorrectThreshold,
): ImageClass {
  if (similarity === null) return 'pending';
  if (similarity >= correctThreshold) return 'correct';
  if (similarity < incorrectThreshold) return 'incorrect';
  return 'forReview';
}

const blank = (v: unknown) => (v === '' || v === null ? undefined : v);
const id = z.coerce.number().int().positive().max(2_147_483_647);
const threshold = (fallback: number) =>
  z.preprocess(
    blank,
    z.coerce.number().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER).default(fallback),
  );

/** The filters every image-verification call shares (lists as comma lists in the querystring). */
const filters = {
  /** brand ids; none = the license's own brands (the brands with reference pictures) */
  brands: listParam(id),
  /** v2_classification node ids; a node selects its subtree */
  classificationsIds: listParam(id),
  /** day of the comparison; default the latest one with checks (in the scope) */
  comparisonDate: z.preprocess(blank, calendarDay.optional()).optional(),
  /** sellers whose listings are checked; none = every licensed seller. Outside the license → 403 */
  sellersIds: listParam(id, 200),
  /** seller product ids / SKUs (whitespace or comma separated) */
  skus: z
    .union([z.string().max(SKUS_TEXT_MAX), z.array(z.string().max(100)).max(SKUS_MAX)])
    .optional()
    .transform((v) => (v === undefined ? undefined : (Array.isArray(v) ? v : [v]).flatMap(parseSkus)))
    .pipe(z.array(z.string().max(100)).max(SKUS_MAX).optional()),
  /** the pivot (the brand owner's seller); outside the license → 403 */
  pivotId: numberParam(1, 2_147_483_647, { int: true }),
  /** IANA zone "today" is read in (default America/Santiago) */
  timezone: z.preprocess(blank, timezoneSchema.optional()).optional(),
  /** only checks of this class (the screen's class filter; thresholds of the seed) */
  imageClass: z.preprocess(blank, z.enum(IMAGE_CLASSES).optional()).optional(),
};

export const imageItemsQuery = z
  .object({
    ...filters,
    limit: z.preprocess(
      blank,
      z.coerce.number().int().min(1).max(IMAGE_MAX_PAGE_SIZE).default(IMAGE_VERIFICATION.pageSize),
    ),
    skip: z.preprocess(blank, z.coerce.number().int().min(0).max(1_000_000).default(0)),
    /** lowerThreshold ≤ similarity < upperThreshold (seed defaults: the safe-integer bounds, i.e. all) */
    lowerThreshold: threshold(IMAGE_VERIFICATION.defaultLowerThreshold),
    upperThreshold: threshold(IMAGE_VERIFICATION.defaultUpperThreshold),
  })
  // an impossible range is a 400 naming the field, never an empty list (issue 31 item 4)
  .refine((q) => q.lowerThreshold <= q.upperThreshold, {
    path: ['upperThreshold'],
    message: 'upperThreshold: el máximo de similitud no puede ser menor que el mínimo',
  });
export type ImageItemsQuery = z.output<typeof imageItemsQuery>;
export type ImageItemsQueryInput = z.input<typeof imageItemsQuery>;

/**
 * The XLSX's query: the items filters (every page). A plain download link may also carry the JWT as
 * `authToken` (seed 001 §7): the server reads it before authentication, checks it like the header and never
 * logs it; it is not part of this schema so that the published API description lists no credential in a
 * URL (OWASP API2) — clients that can send the Authorization header should.
 */
export const imageXlsxQuery = imageItemsQuery;
export type ImageXlsxQueryInput = z.input<typeof imageXlsxQuery>;

export const imageKpisQuery = z.object({
  ...filters,
  correctThreshold: z.preprocess(
    blank,
    z.coerce.number().min(0).max(1).default(IMAGE_VERIFICATION.correctThreshold),
  ),
  incorrectThreshold: z.preprocess(
    blank,
    z.coerce.number().min(0).max(1).default(IMAGE_VERIFICATION.incorrectThreshold),
  ),
});
export type ImageKpisQuery = z.output<typeof imageKpisQuery>;
export type ImageKpisQueryInput = z.input<typeof imageKpisQuery>;

const checkId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export const imageCheckQuery = z.object({ id: checkId });
export const imageReviewBody = z.object({
  /** the check (image_checks.id) whose picture is decided on */
  id: checkId,
  /** accepted / wrong; null withdraws the decision */
  decision: z.enum(IMAGE_REVIEW_DECISIONS).nullable(),
});
export type ImageReviewBody = z.output<typeof imageReviewBody>;

const review = z
  .object({ decision: z.enum(IMAGE_REVIEW_DECISIONS), decidedAt: z.string(), decidedBy: z.string() })
  .nullable();

export const imageItem = z.object({
  /** the check's id (image_checks.id) */
  id: z.number(),
  comparisonDate: z.string(),
  productId: z.number(),
  sellerId: z.number(),
  sellerName: z.string(),
  sellerColor: z.string().nullable(),
  sku: z.string().nullable(),
  ean: z.string().nullable(),
  name: z.string().nullable(),
  brand: z.string().nullable(),
  url: z.string().nullable(),
  /** the seller's picture and the brand's reference picture (server paths for the demo's) */
  imageUrl: z.string(),
  referenceUrl: z.string(),
  /** null until measured */
  similarity: z.number().nullable(),
  classification: z.enum(IMAGE_CLASSES),
  review,
});
export type ImageItem = z.output<typeof imageItem>;

export const imageItemsResponse = z.object({
  total: z.number(),
  /** the comparison date shown (null: no checks in the scope) */
  comparisonDate: z.string().nullable(),
  items: z.array(imageItem),
});
export type ImageItemsResponse = z.output<typeof imageItemsResponse>;

export const imageKpis = z.object({
  comparisonDate: z.string().nullable(),
  correct: z.number(),
  /** in the review band and not reviewed yet */
  forReview: z.number(),
  /** in the review band and already accepted or rejected by someone of the organisation */
  reviewed: z.number(),
  incorrect: z.number(),
  /** checks not measured yet */
  pending: z.number(),
  total: z.number(),
  correctThreshold: z.number(),
  incorrectThreshold: z.number(),
});
export type ImageKpis = z.output<typeof imageKpis>;

export const imageCheckDetail = imageItem.extend({
  score: z
    .object({
      algorithm: z.string(),
      ssim: z.number(),
      coverage: z.number(),
      colour: z.number(),
      hashDistance: z.number(),
      /** part of the reference the seller's picture matches (fractions of its side) */
      region: z.object({ x: z.number(), y: z.number(), side: z.number() }),
      /** gridSide² dissimilarities in [0, 1], row by row, over the seller's picture */
      diffMap: z.array(z.number()),
      gridSide: z.number(),
      /** box around the differing windows (fractions of the seller picture's side) */
      outline: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).nullable(),
      scoredAt: z.string(),
    })
    .nullable(),
  /** why the picture could not be measured (unreadable, unreachable) */
  error: z.string().nullable(),
});
export type ImageCheckDetail = z.output<typeof imageCheckDetail>;

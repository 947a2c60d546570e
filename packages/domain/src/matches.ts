import { z } from 'zod';
import { idSchema, shortText } from './common.js';
import { listParam } from './filters.js';

// Coincidencias (issue 29): the review queue of matches, decisions, a product's match history, a report
// of a wrong match. Module dpm (matching decides which competitor prices the DPM screens compare); a
// user sees and decides only pairs whose two listings are of sellers of its license (competitors or
// pivots), inside its classifications.

/** Sources of a membership: identifiers (ean, gtin, mpn), the title score (auto, title), a person, an anchor. */
export const MATCH_SOURCES = ['ean', 'gtin', 'mpn', 'auto', 'title', 'manual', 'anchor'] as const;
export const matchSource = z.enum(MATCH_SOURCES);
export const MATCH_STATUSES = ['suggested', 'confirmed', 'rejected'] as const;
export const matchStatus = z.enum(MATCH_STATUSES);

export const matchPart = z.object({
  part: z.enum(['brand', 'quantity', 'pack', 'model', 'variant', 'name']),
  verdict: z.enum(['agree', 'disagree', 'missing']),
  a: z.string(),
  b: z.string(),
});

/** One listing of a pair as the review screen shows it. */
export const matchSide = z.object({
  productId: z.number().int(),
  sellerId: z.number().int(),
  sellerName: z.string(),
  ref: z.string(),
  name: z.string(),
  brand: z.string().nullable(),
  brandId: z.number().int().nullable(),
  url: z.string().nullable(),
  imageUrl: z.string().nullable(),
  price: z.number().nullable(),
  currency: z.string(),
  /** the price in the user's currency (null without a rate) */
  convertedPrice: z.number().nullable(),
  convertedCurrency: z.string(),
  /** pack size read from the name ("6 x 350 ml"), null when none */
  pack: z.string().nullable(),
  classification: z.string().nullable(),
});
export type MatchSide = z.infer<typeof matchSide>;

export const matchItem = z.object({
  groupId: z.number().int(),
  productId: z.number().int(),
  status: matchStatus,
  source: matchSource,
  score: z.number(),
  parts: z.array(matchPart),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  /** the listing under review */
  candidate: matchSide,
  /** the listing it was matched with (the pivot's when there is one) */
  pivot: matchSide,
});
export type MatchItem = z.infer<typeof matchItem>;

const score01 = z.coerce.number().min(0).max(1);

export const matchQueueBody = z
  .object({
    sellerIds: listParam(idSchema, 100).optional(),
    brandIds: listParam(idSchema, 200).optional(),
    classificationsIds: listParam(idSchema, 200).optional(),
    minScore: score01.optional(),
    maxScore: score01.optional(),
    /** sources (reason of the match): default title and auto */
    reasons: listParam(matchSource, 10).optional(),
    status: matchStatus.default('suggested'),
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(100).default(25),
  })
  .strict()
  .refine((b) => b.minScore === undefined || b.maxScore === undefined || b.minScore <= b.maxScore, {
    message: 'minScore debe ser menor o igual que maxScore',
    path: ['minScore'],
  });
export type MatchQueueBody = z.input<typeof matchQueueBody>;

export const matchQueueResponse = z.object({
  items: z.array(matchItem),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type MatchQueueResponse = z.infer<typeof matchQueueResponse>;

/** A decision on a listing's membership of a group (`listingId`: the listing, products.id). */
export const matchDecision = z
  .object({
    listingId: idSchema,
    groupId: idSchema,
    action: z.enum(['accept', 'reject', 'undo']),
    note: shortText(500).optional(),
  })
  .strict();
export type MatchDecision = z.infer<typeof matchDecision>;

export const matchDecideBody = z.object({ decisions: z.array(matchDecision).min(1).max(500) }).strict();
export const matchDecideResponse = z.object({ changed: z.number().int() });

/** Bulk: accept every suggestion of a brand at or above a score (within the license). */
export const matchAcceptBrandBody = z
  .object({
    brandId: idSchema,
    minScore: score01,
    sellerIds: listParam(idSchema, 100).optional(),
  })
  .strict();

export const matchReportBody = z
  .object({ listingId: idSchema, groupId: idSchema, note: shortText(500).optional() })
  .strict();

export const matchHistoryBody = z.object({ listingId: idSchema }).strict();
export const matchDecisionRecord = z.object({
  id: z.number().int(),
  productId: z.number().int(),
  groupId: z.number().int(),
  action: z.enum(['auto', 'accept', 'reject', 'undo', 'report']),
  prevStatus: matchStatus.nullable(),
  newStatus: matchStatus.nullable(),
  score: z.number().nullable(),
  note: z.string().nullable(),
  by: z.string().nullable(),
  at: z.string(),
  undone: z.boolean(),
});
export const matchHistoryResponse = z.object({
  /** the product's live matches and those rejected, each a pair with the product */
  matches: z.array(matchItem),
  decisions: z.array(matchDecisionRecord),
});
export type MatchHistoryResponse = z.infer<typeof matchHistoryResponse>;

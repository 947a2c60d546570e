import {
  classifySimilarity,
  IMAGE_VERIFICATION,
  type ImageCheckDetail,
  type ImageItem,
  type ImageItemsQuery,
  type ImageKpis,
  type ImageKpisQuery,
  round2,
} from '@vigia/domain';
import type { Queryable } from '../../db/database.js';
import {
  assertClassificationsLicensed,
  type Requester,
  resolvePivot,
  resolveSellers,
  today,
  visibleSellers,
} from '../../market/index.js';
import { dayZone } from '../ingest/index.js';
import {
  type Band,
  type CheckRow,
  type CheckScope,
  type ScoreRow,
  selectCheck,
  selectChecks,
  selectKpis,
  selectLatestComparisonDate,
} from './queries.js';
import { DIFF_GRID, outlineOf } from './similarity.js';

type Filters = Omit<ImageKpisQuery, 'correctThreshold' | 'incorrectThreshold'>;

/**
 * The request's checks under the license: pivot, sellers and classifications refused (403) outside it.
 * The comparison date is a day of the organisation's day zone (dayZone of its market zone, as every
 * screen's days: issue 25); the seed's `timezone` parameter is validated but decides no day (a day of
 * another zone than the organisation's would mix zones with the other screens).
 */
export async function resolveCheckScope(
  who: Requester,
  db: Queryable,
  q: Filters,
): Promise<CheckScope | { day: null }> {
  const { license } = who.principal;
  resolvePivot(who, q.pivotId ?? null);
  const sellers = q.sellersIds?.length ? resolveSellers(who, q.sellersIds) : visibleSellers(license);
  await assertClassificationsLicensed(db, license, q.classificationsIds);
  const zone = await dayZone(db, who.principal.marketZone);
  const day = q.comparisonDate ?? (await selectLatestComparisonDate(db, today(new Date(), zone), zone));
  if (!day) return { day: null };
  return {
    orgId: who.principal.orgId,
    day,
    zone,
    sellers,
    brands: q.brands?.length ? q.brands : license.brands.length ? license.brands : null,
    classifications: q.classificationsIds?.length ? q.classificationsIds : null,
    roots: license.classifications.length ? license.classifications : null,
    skus: q.skus?.length ? q.skus : null,
  };
}

/**
 * The similarity band of an items request: the class filter AND lowerThreshold ≤ s < upperThreshold
 * (issue 31 item 4: a status once made the range be ignored); 'Para revisión' lists only the checks nobody
 * reviewed yet, as its count does.
 */
export function bandOf(q: Pick<ImageItemsQuery, 'imageClass' | 'lowerThreshold' | 'upperThreshold'>): Band {
  const { correctThreshold: hi, incorrectThreshold: lo } = IMAGE_VERIFICATION;
  const all = { lower: -Infinity, upper: Infinity };
  const within = (lower: number, upper: number) => ({
    lower: Math.max(lower, q.lowerThreshold),
    upper: Math.min(upper, q.upperThreshold),
  });
  switch (q.imageClass) {
    case 'correct':
      return { ...within(hi, Infinity), withPending: false, onlyPending: false };
    case 'forReview':
      return { ...within(lo, hi), withPending: false, onlyPending: false, unreviewed: true };
    case 'incorrect':
      return { ...within(-Infinity, lo), withPending: false, onlyPending: false };
    case 'pending':
      return { ...all, withPending: true, onlyPending: true };
  }
  const defaults =
    q.lowerThreshold === IMAGE_VERIFICATION.defaultLowerThreshold &&
    q.upperThreshold === IMAGE_VERIFICATION.defaultUpperThreshold;
  // the seed's defaults (the safe-integer bounds) mean "no band": unmeasured checks are listed too
  return { lower: q.lowerThreshold, upper: q.upperThreshold, withPending: defaults, onlyPending: false };
}

export function itemOf(r: CheckRow): ImageItem {
  return {
    id: Number(r.id),
    comparisonDate: r.comparison_date,
    productId: Number(r.product_id),
    sellerId: r.seller_id,
    sellerName: r.seller_name,
    sellerColor: r.seller_color,
    sku: r.sku,
    ean: r.ean,
    name: r.name,
    brand: r.brand,
    url: r.url,
    imageUrl: r.image_url,
    referenceUrl: r.reference_url,
    similarity: r.similarity,
    classification: classifySimilarity(r.similarity),
    review:
      r.decision && r.decided_at
        ? { decision: r.decision, decidedAt: r.decided_at.toISOString(), decidedBy: r.decided_by ?? '' }
        : null,
  };
}

export async function findItems(db: Queryable, who: Requester, q: ImageItemsQuery) {
  const scope = await resolveCheckScope(who, db, q);
  if (scope.day === null) return { total: 0, comparisonDate: null, items: [] };
  const s = scope as CheckScope;
  const { rows, total } = await selectChecks(db, s, bandOf(q), { limit: q.limit, skip: q.skip });
  return { total, comparisonDate: s.day, items: rows.map(itemOf) };
}

export async function findKpis(db: Queryable, who: Requester, q: ImageKpisQuery): Promise<ImageKpis> {
  const base = { correctThreshold: q.correctThreshold, incorrectThreshold: q.incorrectThreshold };
  const scope = await resolveCheckScope(who, db, q);
  if (scope.day === null)
    return {
      comparisonDate: null,
      correct: 0,
      forReview: 0,
      reviewed: 0,
      incorrect: 0,
      pending: 0,
      total: 0,
      ...base,
    };
  const k = await selectKpis(db, scope as CheckScope, q.correctThreshold, q.incorrectThreshold);
  return {
    comparisonDate: (scope as CheckScope).day,
    correct: k.correct,
    forReview: k.for_review,
    reviewed: k.reviewed,
    incorrect: k.incorrect,
    pending: k.pending,
    total: k.total,
    ...base,
  };
}

export function detailOf(r: CheckRow & ScoreRow): ImageCheckDetail {
  const measured = r.similarity !== null && r.ssim !== null && r.region && r.diff_map && r.scored_at;
  return {
    ...itemOf(r),
    score: measured
      ? {
          algorithm: r.algorithm ?? '',
          ssim: r.ssim ?? 0,
          coverage: r.coverage ?? 1,
          colour: r.colour ?? 1,
          hashDistance: r.hash_distance ?? 0,
          region: r.region as { x: number; y: number; side: number },
          diffMap: (r.diff_map as number[]).map((v) => round2(v)),
          gridSide: DIFF_GRID,
          outline: outlineOf(r.diff_map as number[]),
          scoredAt: (r.scored_at as Date).toISOString(),
        }
      : null,
    error: r.error,
  };
}

/** One check of the caller's scope (any licensed seller), or null. */
export async function findCheck(db: Queryable, who: Requester, id: number) {
  const { license, orgId } = who.principal;
  const row = await selectCheck(
    db,
    id,
    orgId,
    visibleSellers(license),
    license.classifications.length ? license.classifications : null,
    await dayZone(db, who.principal.marketZone),
  );
  return row ? detailOf(row) : null;
}

import type { Queryable } from '../db/database.js';
import { badRequest, forbidden } from '../lib/errors.js';
import type { License, Principal } from '../plugins/auth.js';

// License scoping used by every analysis endpoint: a seller, pivot, currency or classification outside
// the license is refused with 403, never silently dropped or shown (PRODUCT.md "license"). Nothing here
// reads a Fastify request: a feature passes who asks (lib/scope.ts requesterOf) and what was asked.

/** Who asks: the signed-in principal and the raw X-Pivot-Id header of the request, when one was sent. */
export interface Requester {
  principal: Principal;
  pivotHeader?: string | null;
}

/** The pivot asked for: explicit value, else the X-Pivot-Id header, else the user's pivot. 403 outside. */
export function resolvePivot(who: Requester, requested?: number | null): number {
  const p = who.principal;
  const header = who.pivotHeader;
  const pivot = requested ?? (typeof header === 'string' && header ? Number(header) : null) ?? p.pivotId;
  if (pivot === null || pivot === undefined || Number.isNaN(pivot)) {
    throw badRequest('pivot_id: no hay un pivote seleccionado', 'pivot_id');
  }
  if (!p.license.pivots.includes(pivot))
    throw forbidden(`Pivote no incluido en la licencia: ${pivot}`, 'pivot_not_licensed');
  return pivot;
}

/**
 * The pivot when one is asked for (explicit, then X-Pivot-Id) — validated against the license (403) —
 * or the user's pivot when licensed; null when there is none (product detail).
 */
export function optionalPivot(who: Requester, requested?: number | null): number | null {
  const header = who.pivotHeader;
  if ((requested !== null && requested !== undefined) || (typeof header === 'string' && header !== '')) {
    return resolvePivot(who, requested ?? null);
  }
  const p = who.principal;
  return p.pivotId !== null && p.license.pivots.includes(p.pivotId) ? p.pivotId : null;
}

/**
 * The competitor sellers asked for. Any requested seller outside the license → 403.
 * None requested → every licensed seller except the pivot.
 */
export function resolveSellers(
  who: Requester,
  requested: number[] | null | undefined,
  pivot?: number,
): number[] {
  const { license } = who.principal;
  if (requested && requested.length > 0) {
    const outside = requested.filter((s) => !license.sellers.includes(s) && !license.pivots.includes(s));
    if (outside.length)
      throw forbidden(`eCommerce no incluido en la licencia: ${outside.join(', ')}`, 'seller_not_licensed');
    return [...new Set(requested)].filter((s) => s !== pivot);
  }
  return license.sellers.filter((s) => s !== pivot);
}

/** The currency asked for: explicit, else the user's, else the license's first. Outside → 403. */
/**
 * The currency a user reads amounts in when a request names none (seed rule): the user's own currency
 * when the license grants it, else the license's first currency, else CLP.
 */
export function userCurrency(own: string | null | undefined, licensed: readonly string[]): string {
  const mine = own?.toUpperCase();
  return mine && (licensed.includes(mine) || !licensed.length) ? mine : (licensed[0] ?? 'CLP');
}

export function resolveCurrency(who: Requester, requested?: string | null): string {
  const p = who.principal;
  const currency = (requested || userCurrency(p.currency, p.license.currencies)).toUpperCase();
  if (!p.license.currencies.includes(currency)) {
    throw forbidden(`Divisa no incluida en la licencia: ${currency}`, 'currency_not_licensed');
  }
  return currency;
}

/** An analysis's market under the license: the pivot, its competitors, the currency and the license roots. */
export interface MarketScope {
  pivot: number;
  /** selected ∩ license, pivot excluded, in the request's order; none selected = every licensed seller */
  competitors: number[];
  currency: string;
  /** the license's granted classification roots (empty = the whole tree) */
  roots: number[];
}

/**
 * The market of an analysis request (pricing screens, dashboard): pivot, competitors (`sellersIds` when
 * given — the filter panel's subset — else `sellers`, else every licensed seller; the pivot excluded;
 * both lists checked), currency and classifications, each refused with 403 outside the license.
 */
export async function resolveMarketScope(
  who: Requester,
  db: Queryable,
  f: {
    pivot_id?: number | null;
    sellers?: number[] | null;
    sellersIds?: number[] | null;
    currency?: string | null;
    classificationsIds?: number[] | null;
  },
): Promise<MarketScope> {
  const pivot = resolvePivot(who, f.pivot_id ?? null);
  const fromSession = f.sellers?.length ? resolveSellers(who, f.sellers, pivot) : null;
  const competitors = f.sellersIds?.length
    ? resolveSellers(who, f.sellersIds, pivot)
    : (fromSession ?? resolveSellers(who, null, pivot));
  const currency = resolveCurrency(who, f.currency);
  const { license } = who.principal;
  await assertClassificationsLicensed(db, license, f.classificationsIds);
  return { pivot, competitors, currency, roots: license.classifications };
}

/** Every seller the license lets its users see: competitors and pivots. */
export function visibleSellers(license: License): number[] {
  return [...new Set([...license.sellers, ...license.pivots])];
}

/**
 * A listing is inside the license when its seller is licensed (competitor or pivot) and, when the
 * license grants classification subtrees, it is classified under one of them (unclassified listings
 * are not excluded: nothing says they are outside).
 */
export function listingInLicense(
  license: License,
  row: { seller_id: number; classification_path: number[] | null },
): boolean {
  if (!license.sellers.includes(row.seller_id) && !license.pivots.includes(row.seller_id)) return false;
  if (license.classifications.length && row.classification_path?.length) {
    return row.classification_path.some((id) => license.classifications.includes(id));
  }
  return true;
}

/** Requested classification ids outside the license's granted subtrees (none when the whole tree is granted). */
export async function classificationsOutside(
  db: Queryable,
  ids: number[],
  roots: number[],
): Promise<number[]> {
  if (!ids.length || !roots.length) return [];
  const { rows } = await db.query<{ id: number }>(
    `select x.id from unnest($1::int[]) x(id)
      where not exists (select 1 from classifications c where c.id = x.id and c.path && $2::int[])`,
    [ids, roots],
  );
  return rows.map((r) => r.id);
}

/** 403 when a requested classification lies outside the license's granted subtrees. */
export async function assertClassificationsLicensed(
  db: Queryable,
  license: License,
  ids: number[] | null | undefined,
): Promise<void> {
  const outside = await classificationsOutside(db, ids ?? [], license.classifications);
  if (outside.length) {
    throw forbidden(
      `Clasificación no incluida en la licencia: ${outside.join(', ')}`,
      'classification_not_licensed',
    );
  }
}

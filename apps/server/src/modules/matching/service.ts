import {
  type MatchHistoryResponse,
  type MatchItem,
  type MatchQueueResponse,
  type MatchSide,
  type matchAcceptBrandBody,
  type matchDecideBody,
  type matchQueueBody,
  type matchReportBody,
  type PartResult,
  quantityLabel,
  scoreTitles,
} from '@vigia/domain';
import type pg from 'pg';
import type { z } from 'zod';
import { withTransaction } from '../../db/database.js';
import { badRequest, forbidden, notFound } from '../../lib/errors.js';
import {
  assertClassificationsLicensed,
  cents,
  type Requester,
  resolveSellers,
  selectRates,
  today,
  visibleSellers,
} from '../../market/index.js';
import { applyMatchChanges, decideMatches } from './decide.js';

// The review queue, decisions, a product's matches (issue 29). A user sees and decides only pairs whose
// two listings are of its license's sellers (competitors and pivots) and, when the license grants
// classification subtrees, whose listing under review is classified inside them. The listing a pair
// compares with is the one the run matched it with (target_product_id), else the group's confirmed
// listing at a pivot of the license, else any other visible confirmed listing of the group.

/** A pair's row before its two listings are read. */
interface PairRow {
  group_id: string;
  product_id: string;
  other_id: string;
  status: MatchItem['status'];
  method: MatchItem['source'];
  score: number | null;
  parts: PartResult[] | null;
  decided_by: string | null;
  decided_at: Date | null;
  total?: string;
}

/** The counterpart of membership `m` (see above); `$V` visible sellers, `$P` the license's pivots. */
const OTHER = (v: string, p: string) => `coalesce(
  (select t.id from products t where t.id = m.target_product_id and t.seller_id = any(${v})),
  (select o.product_id from match_members o join products op on op.id = o.product_id
    where o.group_id = m.group_id and o.product_id <> m.product_id and o.status = 'confirmed'
      and op.seller_id = any(${v}) and op.seller_id <> p.seller_id
    order by (op.seller_id = any(${p})) desc, o.product_id limit 1))`;

function userCurrency(who: Requester): string {
  const p = who.principal;
  return (p.currency || p.license.currencies[0] || 'CLP').toUpperCase();
}

/** The listings of the pairs, as the screen shows them. */
async function sidesOf(db: pg.Pool, who: Requester, ids: number[]): Promise<Map<number, MatchSide>> {
  if (!ids.length) return new Map();
  const target = userCurrency(who);
  const [{ rows }, rates] = await Promise.all([
    db.query<{
      id: string;
      seller_id: number;
      seller_name: string;
      ref: string;
      name: string | null;
      brand: string | null;
      brand_id: number | null;
      url: string | null;
      image_url: string | null;
      price: string | null;
      currency: string | null;
      class_name: string | null;
    }>(
      `select p.id, p.seller_id, s.name as seller_name, p.product_id as ref, p.name, b.name as brand, p.brand_id, p.url,
              p.image_url, lc.effective_price as price, coalesce(lc.currency, s.currency) as currency,
              c.name as class_name
         from products p join sellers s on s.id = p.seller_id
         left join brands b on b.id = p.brand_id
         left join listing_current lc on lc.product_id = p.id
         left join classifications c on c.id = p.classification_id
        where p.id = any($1::bigint[])`,
      [ids],
    ),
    selectRates(db, target, today()),
  ]);
  return new Map(
    rows.map((r) => {
      const price = r.price === null ? null : Number(r.price);
      const currency = r.currency ?? 'CLP';
      const f = rates?.get(currency);
      return [
        Number(r.id),
        {
          productId: Number(r.id),
          sellerId: r.seller_id,
          sellerName: r.seller_name,
          ref: r.ref,
          name: r.name ?? '',
          brand: r.brand,
          brandId: r.brand_id,
          url: r.url,
          imageUrl: r.image_url,
          price,
          currency,
          convertedPrice: price === null || f === undefined ? null : cents(price * f),
          convertedCurrency: target,
          pack: r.name ? quantityLabel(r.name) : null,
          classification: r.class_name,
        },
      ];
    }),
  );
}

/** Names of the users who decided. */
async function userNames(db: pg.Pool, ids: (string | null)[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((x): x is string => x !== null).map(Number))];
  if (!wanted.length) return new Map();
  const { rows } = await db.query<{ id: number; name: string }>(
    `select id, coalesce(nullif(name, ''), email) as name from users where id = any($1::int[])`,
    [wanted],
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

async function itemsOf(db: pg.Pool, who: Requester, rows: PairRow[]): Promise<MatchItem[]> {
  const sides = await sidesOf(db, who, [
    ...new Set(rows.flatMap((r) => [Number(r.product_id), Number(r.other_id)])),
  ]);
  const names = await userNames(
    db,
    rows.map((r) => r.decided_by),
  );
  const out: MatchItem[] = [];
  for (const r of rows) {
    const candidate = sides.get(Number(r.product_id));
    const pivot = sides.get(Number(r.other_id));
    if (!candidate || !pivot) continue;
    // parts stored by the run; for older rows (the demo's trigram suggestions) the scorer's, read now
    const scored =
      r.parts && r.score !== null
        ? { score: r.score, parts: r.parts }
        : scoreTitles(
            { title: candidate.name, brand: candidate.brand },
            { title: pivot.name, brand: pivot.brand },
          );
    out.push({
      groupId: Number(r.group_id),
      productId: Number(r.product_id),
      status: r.status,
      source: r.method,
      score: Math.round((r.score ?? scored.score) * 1000) / 1000,
      parts: scored.parts,
      decidedBy: r.decided_by === null ? null : (names.get(Number(r.decided_by)) ?? null),
      decidedAt: r.decided_at ? r.decided_at.toISOString() : null,
      candidate,
      pivot,
    });
  }
  return out;
}

/** The review queue (filters, one page). */
export async function findQueue(
  db: pg.Pool,
  who: Requester,
  q: z.output<typeof matchQueueBody>,
): Promise<MatchQueueResponse> {
  const { license } = who.principal;
  const visible = visibleSellers(license);
  const sellers = q.sellerIds?.length ? resolveSellers(who, q.sellerIds) : visible;
  await assertClassificationsLicensed(db, license, q.classificationsIds);
  const reasons = q.reasons?.length ? q.reasons : q.status === 'suggested' ? ['title'] : ['auto', 'title'];
  const { rows } = await db.query<PairRow>(
    `select * from (
       select m.group_id, m.product_id, ${OTHER('$1::int[]', '$2::int[]')} as other_id, m.status, m.method,
              coalesce(m.score, m.confidence) as score, m.parts, m.decided_by, m.decided_at
         from match_members m
         join products p on p.id = m.product_id
         left join classifications c on c.id = p.classification_id
        where m.status = $3 and m.method = any($4::text[]) and p.seller_id = any($5::int[])
          and ($6::int[] is null or p.brand_id = any($6))
          and ($7::int[] is null or c.path && $7)
          and (cardinality($8::int[]) = 0 or c.path is null or c.path && $8)
          and ($9::real is null or coalesce(m.score, m.confidence) >= $9)
          and ($10::real is null or coalesce(m.score, m.confidence) <= $10)
     ) x
     where other_id is not null
     order by score desc, product_id
     limit $11 offset $12`,
    [
      visible,
      license.pivots,
      q.status,
      reasons,
      sellers,
      q.brandIds?.length ? q.brandIds : null,
      q.classificationsIds?.length ? q.classificationsIds : null,
      license.classifications,
      q.minScore ?? null,
      q.maxScore ?? null,
      q.pageSize,
      (q.page - 1) * q.pageSize,
    ],
  );
  const { rows: count } = await db.query<{ n: number }>(
    `select count(*)::int as n from match_members m
       join products p on p.id = m.product_id
       left join classifications c on c.id = p.classification_id
      where m.status = $3 and m.method = any($4::text[]) and p.seller_id = any($5::int[])
        and ($6::int[] is null or p.brand_id = any($6))
        and ($7::int[] is null or c.path && $7)
        and (cardinality($8::int[]) = 0 or c.path is null or c.path && $8)
        and ($9::real is null or coalesce(m.score, m.confidence) >= $9)
        and ($10::real is null or coalesce(m.score, m.confidence) <= $10)
        and ${OTHER('$1::int[]', '$2::int[]')} is not null`,
    [
      visible,
      license.pivots,
      q.status,
      reasons,
      sellers,
      q.brandIds?.length ? q.brandIds : null,
      q.classificationsIds?.length ? q.classificationsIds : null,
      license.classifications,
      q.minScore ?? null,
      q.maxScore ?? null,
    ],
  );
  return { items: await itemsOf(db, who, rows), total: count[0].n, page: q.page, pageSize: q.pageSize };
}

/** Refuses (403) decisions on listings of sellers outside the license; 404 for unknown listings. */
async function assertVisible(db: pg.Pool, who: Requester, productIds: number[]): Promise<void> {
  const visible = new Set(visibleSellers(who.principal.license));
  const { rows } = await db.query<{ id: string; seller_id: number }>(
    'select id, seller_id from products where id = any($1::bigint[])',
    [productIds],
  );
  if (rows.length < new Set(productIds).size) throw notFound('No existe esa publicación.');
  const outside = rows.filter((r) => !visible.has(r.seller_id));
  if (outside.length)
    throw forbidden(
      `eCommerce no incluido en la licencia: ${[...new Set(outside.map((r) => r.seller_id))].join(', ')}`,
      'seller_not_licensed',
    );
}

export async function decide(
  db: pg.Pool,
  who: Requester,
  body: z.output<typeof matchDecideBody>,
): Promise<{ changed: number }> {
  const decisions = body.decisions.map(({ listingId, ...d }) => ({ ...d, productId: listingId }));
  await assertVisible(
    db,
    who,
    decisions.map((d) => d.productId),
  );
  return { changed: await decideMatches(db, decisions, who.principal.userId) };
}

/** Bulk: every suggestion of a brand at or above a score, of the license's sellers, accepted at once. */
export async function acceptBrand(
  db: pg.Pool,
  who: Requester,
  body: z.output<typeof matchAcceptBrandBody>,
): Promise<{ changed: number }> {
  const { license } = who.principal;
  const visible = visibleSellers(license);
  const sellers = body.sellerIds?.length ? resolveSellers(who, body.sellerIds) : visible;
  const { rows } = await db.query<{ group_id: string; product_id: string }>(
    `select m.group_id, m.product_id from match_members m
       join products p on p.id = m.product_id
       left join classifications c on c.id = p.classification_id
      where m.status = 'suggested' and p.brand_id = $3 and p.seller_id = any($4::int[])
        and coalesce(m.score, m.confidence) >= $5
        and (cardinality($6::int[]) = 0 or c.path is null or c.path && $6)
        and ${OTHER('$1::int[]', '$2::int[]')} is not null
      order by m.product_id limit 5000`,
    [visible, license.pivots, body.brandId, sellers, body.minScore, license.classifications],
  );
  if (!rows.length) return { changed: 0 };
  const changed = await decideMatches(
    db,
    rows.map((r) => ({
      groupId: Number(r.group_id),
      productId: Number(r.product_id),
      action: 'accept' as const,
    })),
    who.principal.userId,
  );
  return { changed };
}

/** A wrong match reported from a product page: the membership goes back to review (suggested). */
export async function report(
  db: pg.Pool,
  who: Requester,
  body: z.output<typeof matchReportBody>,
): Promise<{ changed: number }> {
  const productId = body.listingId;
  await assertVisible(db, who, [productId]);
  return withTransaction(db, async (client) => {
    const { rows } = await client.query<{ status: string; method: string }>(
      'select status, method from match_members where group_id = $1 and product_id = $2',
      [body.groupId, productId],
    );
    if (!rows.length) throw notFound('No existe esa coincidencia.');
    if (rows[0].method === 'anchor')
      throw badRequest(
        'La publicación de referencia del grupo no se puede reportar; reporte la otra publicación.',
        'productId',
      );
    if (rows[0].status !== 'confirmed') return { changed: 0 };
    await applyMatchChanges(client, [
      {
        productId,
        groupId: body.groupId,
        status: 'suggested',
        action: 'report',
        userId: who.principal.userId,
        note: body.note ?? null,
      },
    ]);
    return { changed: 1 };
  });
}

/** A product's matches (the other listings of its group, and its rejected pairs) and its decisions. */
export async function history(db: pg.Pool, who: Requester, productId: number): Promise<MatchHistoryResponse> {
  await assertVisible(db, who, [productId]);
  const { license } = who.principal;
  const visible = visibleSellers(license);
  const { rows } = await db.query<PairRow>(
    `select m.group_id, m.product_id, $3::bigint as other_id, m.status, m.method,
            coalesce(m.score, m.confidence) as score, m.parts, m.decided_by, m.decided_at
       from match_members m join products p on p.id = m.product_id
      where m.group_id = (select group_id from match_members where product_id = $3 and status <> 'rejected')
        and m.product_id <> $3 and m.status <> 'rejected' and p.seller_id = any($1::int[])
     union all
     select m.group_id, m.product_id, ${OTHER('$1::int[]', '$2::int[]')}, m.status, m.method,
            coalesce(m.score, m.confidence), m.parts, m.decided_by, m.decided_at
       from match_members m join products p on p.id = m.product_id
      where m.product_id = $3 and m.status = 'rejected'
      order by 1, 2`,
    [visible, license.pivots, productId],
  );
  const items = await itemsOf(
    db,
    who,
    rows.filter((r) => r.other_id !== null),
  );
  const { rows: d } = await db.query<{
    id: string;
    product_id: string;
    group_id: string;
    action: MatchHistoryResponse['decisions'][number]['action'];
    prev_status: MatchItem['status'] | null;
    new_status: MatchItem['status'] | null;
    score: number | null;
    note: string | null;
    user_id: number | null;
    at: Date;
    undone_by: string | null;
  }>(
    `select d.* from match_decisions d join products p on p.id = d.product_id
      where (d.product_id = $1 or d.group_id in (select group_id from match_members where product_id = $1))
        and p.seller_id = any($2::int[])
      order by d.id desc limit 200`,
    [productId, visible],
  );
  const names = await userNames(
    db,
    d.map((r) => (r.user_id === null ? null : String(r.user_id))),
  );
  return {
    matches: items,
    decisions: d.map((r) => ({
      id: Number(r.id),
      productId: Number(r.product_id),
      groupId: Number(r.group_id),
      action: r.action,
      prevStatus: r.prev_status,
      newStatus: r.new_status,
      score: r.score,
      note: r.note,
      by: r.user_id === null ? null : (names.get(r.user_id) ?? null),
      at: r.at.toISOString(),
      undone: r.undone_by !== null,
    })),
  };
}

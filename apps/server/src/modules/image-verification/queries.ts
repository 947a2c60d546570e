import type { Queryable } from '../../db/database.js';

// SQL of image verification, one function per question (docs/metrics.md "Image verification").

/** The checks a request looks at: one comparison date, its sellers, brands, classifications and SKUs. */
export interface CheckScope {
  orgId: number;
  day: string;
  /** the zone `day` is a day of (the organisation's day zone) */
  zone: string;
  sellers: number[];
  /** null = every brand */
  brands: number[] | null;
  /** requested classification nodes (subtrees); null = all */
  classifications: number[] | null;
  /** the license's granted roots; null = the whole tree */
  roots: number[] | null;
  skus: string[] | null;
}

/**
 * Parameters and WHERE conditions of a CheckScope (c = image_checks): $1…$7, then the caller's `extra`
 * ($8…), then the zone. Seller and brand are the check's own columns (migrations/121); the listing is read
 * only for classifications and SKUs, when asked. The day's checks (migration 481): made within the day in
 * the zone and not replaced by a later check of the listing before the day ended there.
 */
function scopeWhere(s: CheckScope, extra: unknown[] = []): { values: unknown[]; where: string } {
  const zone = `$${8 + extra.length}::text`;
  const end = `vigia_day_start($1::date + 1, ${zone})`;
  return {
    values: [s.day, s.sellers, s.brands, s.classifications, s.roots, s.skus, s.orgId, ...extra, s.zone],
    where: `c.checked_at >= vigia_day_start($1::date, ${zone}) and c.checked_at < ${end}
   and (c.superseded_at is null or c.superseded_at >= ${end})
   and c.seller_id = any($2::int[])
   and ($3::int[] is null or c.brand_id = any($3::int[]))
   and ($4::int[] is null or exists (select 1 from products p join classifications cl on cl.id = p.classification_id
                                      where p.id = c.product_id and cl.path && $4::int[]))
   and ($5::int[] is null or not exists (select 1 from products p join classifications cl on cl.id = p.classification_id
                                          where p.id = c.product_id and not cl.path && $5::int[]))
   and ($6::text[] is null or exists (select 1 from products p
                                       where p.id = c.product_id and (p.product_id = any($6::text[]) or p.sku = any($6::text[]))))`,
  };
}

/** The latest comparison date on or before `today` in `zone`, the day of the latest check (null: none). */
export async function selectLatestComparisonDate(
  db: Queryable,
  today: string,
  zone: string,
): Promise<string | null> {
  const { rows } = await db.query<{ day: string | null }>(
    `select vigia_day(max(checked_at), $2::text)::text as day from image_checks
      where checked_at < vigia_day_start($1::date + 1, $2::text)`,
    [today, zone],
  );
  return rows[0]?.day ?? null;
}

export interface CheckRow {
  id: string;
  comparison_date: string;
  product_id: string;
  seller_id: number;
  seller_name: string;
  seller_color: string | null;
  sku: string | null;
  ean: string | null;
  name: string | null;
  brand: string | null;
  url: string | null;
  image_url: string;
  reference_url: string;
  similarity: number | null;
  decision: 'accepted' | 'wrong' | null;
  decided_at: Date | null;
  decided_by: string | null;
  total?: string;
}

/** A check's columns; its comparison date is its day in zone `zone` (an SQL text expression). */
const CHECK_COLUMNS = (
  zone: string,
) => `c.id, vigia_day(c.checked_at, ${zone})::text as comparison_date, c.product_id, p.seller_id, s.name as seller_name,
       s.color as seller_color, p.sku, p.ean, p.name, b.name as brand, p.url, c.image_url, c.reference_url, c.similarity,
       r.decision, r.decided_at, u.name as decided_by`;
const CHECK_JOINS = `
  join products p on p.id = c.product_id
  join sellers s on s.id = p.seller_id
  left join brands b on b.id = p.brand_id
  left join image_reviews r on r.org_id = $7 and r.product_id = c.product_id and r.image_url = c.image_url
  left join users u on u.id = r.user_id`;

/** Similarity band of a page: lower ≤ similarity < upper; `withPending` keeps the unmeasured checks too. */
export interface Band {
  lower: number;
  upper: number;
  withPending: boolean;
  onlyPending: boolean;
  /** only checks nobody reviewed yet (the 'Para revisión' class: a reviewed picture leaves it) */
  unreviewed?: boolean;
}

/** A reviewed check is no longer waiting for review (issue 31 item 4). */
const NOT_REVIEWED =
  'not exists (select 1 from image_reviews rv where rv.org_id = $7 and rv.product_id = c.product_id and rv.image_url = c.image_url)';
const reviewed = (b: Band) => (b.unreviewed ? `and ${NOT_REVIEWED}` : '');

/**
 * One page of checks, the least similar first (unmeasured last), with the total of the filter. Two steps:
 * the filter, count and order on image_checks only, then the page's 25 rows joined to their
 * seller, brand and review.
 */
export async function selectChecks(
  db: Queryable,
  s: CheckScope,
  band: Band,
  page: { limit: number; skip: number },
): Promise<{ rows: CheckRow[]; total: number }> {
  const extra = [band.lower, band.upper, band.withPending, band.onlyPending, page.limit, page.skip];
  const { values, where } = scopeWhere(s, extra);
  const { rows } = await db.query<CheckRow>(
    `with page as (
       select c.id, count(*) over () as total
         from image_checks c
        where ${where}
          and (case when c.similarity is null then $10::boolean
                    else not $11::boolean and c.similarity >= $8 and c.similarity < $9 end)
          ${reviewed(band)}
        order by c.similarity asc nulls last, c.seller_id, c.product_id
        limit $12 offset $13
     )
     select ${CHECK_COLUMNS('$14::text')}, page.total
       from page join image_checks c on c.id = page.id ${CHECK_JOINS}
      order by c.similarity asc nulls last, c.seller_id, c.product_id`,
    values,
  );
  return {
    rows,
    total: rows.length ? Number(rows[0].total) : page.skip > 0 ? await countChecks(db, s, band) : 0,
  };
}

async function countChecks(db: Queryable, s: CheckScope, band: Band): Promise<number> {
  const { values, where } = scopeWhere(s, [band.lower, band.upper, band.withPending, band.onlyPending]);
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from image_checks c
      where ${where} and $7::int is not null
        and (case when c.similarity is null then $10::boolean
                  else not $11::boolean and c.similarity >= $8 and c.similarity < $9 end)
        ${reviewed(band)}`,
    values,
  );
  return rows[0].n;
}

export interface KpiRow {
  correct: number;
  for_review: number;
  reviewed: number;
  incorrect: number;
  pending: number;
  total: number;
}

/** The classes of the scope's checks (correct ≥ correctThreshold, incorrect < incorrectThreshold). */
export async function selectKpis(
  db: Queryable,
  s: CheckScope,
  correctThreshold: number,
  incorrectThreshold: number,
): Promise<KpiRow> {
  const { values, where } = scopeWhere(s, [correctThreshold, incorrectThreshold]);
  const { rows } = await db.query<KpiRow>(
    `select count(*) filter (where c.similarity >= $8)::int as correct,
            count(*) filter (where c.similarity >= $9 and c.similarity < $8 and ${NOT_REVIEWED})::int as for_review,
            count(*) filter (where c.similarity >= $9 and c.similarity < $8 and not ${NOT_REVIEWED})::int as reviewed,
            count(*) filter (where c.similarity < $9)::int as incorrect,
            count(*) filter (where c.similarity is null)::int as pending,
            count(*)::int as total
       from image_checks c
      where ${where} and $7::int is not null`,
    values,
  );
  return rows[0];
}

export interface ScoreRow {
  algorithm: string | null;
  ssim: number | null;
  coverage: number | null;
  colour: number | null;
  hash_distance: number | null;
  region: { x: number; y: number; side: number } | null;
  diff_map: number[] | null;
  scored_at: Date | null;
  error: string | null;
}

/**
 * One check with its measure, when its listing is among `sellers` and inside the license's roots; its
 * comparison date is its day in `zone`.
 */
export async function selectCheck(
  db: Queryable,
  id: number,
  orgId: number,
  sellers: number[],
  roots: number[] | null,
  zone: string,
): Promise<(CheckRow & ScoreRow) | null> {
  const { rows } = await db.query<CheckRow & ScoreRow>(
    `select ${CHECK_COLUMNS('$5::text')}, sc.algorithm, sc.ssim, sc.coverage, sc.colour, sc.hash_distance, sc.region, sc.diff_map,
            sc.scored_at, sc.error
       from image_checks c ${CHECK_JOINS.replaceAll('$7', '$2')}
       left join image_scores sc on sc.reference_url = c.reference_url and sc.image_url = c.image_url
      where c.id = $1 and p.seller_id = any($3::int[])
        and ($4::int[] is null or p.classification_id is null
             or exists (select 1 from classifications cl where cl.id = p.classification_id and cl.path && $4::int[]))`,
    [id, orgId, sellers, roots, zone],
  );
  return rows[0] ?? null;
}

/** Records (or, with null, withdraws) an organisation's decision on a listing's picture. */
export async function upsertReview(
  db: Queryable,
  r: {
    orgId: number;
    productId: number;
    imageUrl: string;
    decision: 'accepted' | 'wrong' | null;
    userId: number;
  },
): Promise<void> {
  if (r.decision === null) {
    await db.query('delete from image_reviews where org_id = $1 and product_id = $2 and image_url = $3', [
      r.orgId,
      r.productId,
      r.imageUrl,
    ]);
    return;
  }
  await db.query(
    `insert into image_reviews (org_id, product_id, image_url, decision, user_id) values ($1, $2, $3, $4, $5)
     on conflict (org_id, product_id, image_url)
     do update set decision = excluded.decision, user_id = excluded.user_id, decided_at = now()`,
    [r.orgId, r.productId, r.imageUrl, r.decision, r.userId],
  );
}

import type { Queryable } from '../../db/database.js';

// SQL of the license data endpoints. Every function takes the ids the caller's license grants
// (request.principal.license), so nothing outside the license can be returned.

/** Currencies of the license with their names. */
export async function currenciesByAcronym(db: Queryable, acronyms: string[]) {
  const { rows } = await db.query<{ acronym: string; name: string }>(
    'select acronym, name from currencies where acronym = any($1::text[]) order by acronym',
    [acronyms],
  );
  return rows;
}

export interface SellerRow {
  id: number;
  name: string;
  country: string;
  color: string;
  currency: string;
  country_name: string;
  country_flag: string;
}

/** Sellers by id, with their country's name and flag; ordered by country name, then seller name. */
export async function sellersById(db: Queryable, ids: number[]): Promise<SellerRow[]> {
  const { rows } = await db.query<SellerRow>(
    `select s.id, s.name, s.country, s.color, s.currency, c.name as country_name, c.flag as country_flag
       from sellers s
       join countries c on c.code = s.country
      where s.id = any($1::int[])
      order by c.name, s.name, s.id`,
    [ids],
  );
  return rows;
}

export interface ClassificationRow {
  id: number;
  name: string;
  level: number;
  parent_id: number | null;
}

/**
 * The licensed part of v2_classification: the granted roots and everything below them
 * (`path` holds the ids root→self); no granted roots = the whole tree.
 */
export async function licensedClassifications(db: Queryable, roots: number[]): Promise<ClassificationRow[]> {
  const { rows } = await db.query<ClassificationRow>(
    `select id, name, level, parent_id
       from classifications
      where cardinality($1::int[]) = 0 or path && $1::int[]
      order by level, name, id`,
    [roots],
  );
  return rows;
}

export interface CategoryRow {
  id: number;
  name: string;
  seller_id: number;
  level: number;
  parent_id: number | null;
}

/** The category trees (v2_category_tree) of the given sellers. */
export async function categoriesOfSellers(db: Queryable, sellers: number[]): Promise<CategoryRow[]> {
  const { rows } = await db.query<CategoryRow>(
    `select id, name, seller_id, level, parent_id
       from categories
      where seller_id = any($1::int[])
      order by seller_id, level, name, id`,
    [sellers],
  );
  return rows;
}

/**
 * Brands with at least one published listing at any of `sellers`; `own` = one of the license's own
 * brands. One index probe per brand (products_published_brand_seller_idx).
 */
export async function brandsOfSellers(db: Queryable, sellers: number[], ownBrands: number[]) {
  const { rows } = await db.query<{ id: number; name: string; own: boolean }>(
    `select b.id, b.name, b.id = any($2::int[]) as own
       from brands b
      where exists (select 1 from products p
                     where p.brand_id = b.id and p.published and p.seller_id = any($1::int[]))
      order by b.name, b.id`,
    [sellers, ownBrands],
  );
  return rows;
}

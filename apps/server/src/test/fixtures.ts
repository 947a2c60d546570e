import type pg from 'pg';
import { clearIngestCaches, ingestObservations, type Observation } from '../modules/ingest/ingest.js';

/**
 * Small building blocks for API tests. Data enters through the real ingestion path, as in production.
 * Hand-computed expectations in tests depend on exactly what is passed here, nothing random.
 */

export async function seedReferenceData(pool: pg.Pool): Promise<void> {
  clearIngestCaches();
  await pool.query(`
    insert into currencies (acronym, name, decimals) values
      ('CLP', 'Peso chileno', 0), ('USD', 'Dólar estadounidense', 2), ('PEN', 'Sol peruano', 2),
      ('MXN', 'Peso mexicano', 2), ('PAB', 'Balboa panameño', 2)
    on conflict do nothing;
    insert into countries (code, name, flag, currency) values
      ('CL', 'Chile', '🇨🇱', 'CLP'), ('PE', 'Perú', '🇵🇪', 'PEN'), ('MX', 'México', '🇲🇽', 'MXN')
    on conflict do nothing;
  `);
}

export async function insertFxRate(pool: pg.Pool, currency: string, day: string, clpPerUnit: number) {
  await pool.query(
    `insert into fx_rates (currency, day, clp_per_unit) values ($1, $2, $3)
     on conflict (currency, day) do update set clp_per_unit = excluded.clp_per_unit`,
    [currency, day, clpPerUnit],
  );
}

export async function insertSeller(
  pool: pg.Pool,
  s: { id: number; name: string; country?: string; currency?: string; color?: string },
): Promise<void> {
  await pool.query(`insert into sellers (id, name, country, currency, color) values ($1, $2, $3, $4, $5)`, [
    s.id,
    s.name,
    s.country ?? 'CL',
    s.currency ?? 'CLP',
    s.color ?? '#6a1b9a',
  ]);
}

/** Inserts a classification node; returns its id. */
export async function insertClassification(
  pool: pg.Pool,
  name: string,
  parentId: number | null = null,
): Promise<number> {
  const { rows } = await pool.query<{ id: number }>(
    `insert into classifications (parent_id, name, level, path)
     values ($1, $2, coalesce((select level + 1 from classifications where id = $1), 1), '{}')
     returning id`,
    [parentId, name],
  );
  const id = rows[0].id;
  await pool.query(
    `update classifications set path = coalesce((select path from classifications where id = $2), '{}') || $1::int
      where id = $1`,
    [id, parentId],
  );
  return id;
}

/** Observes a seller's listings at an instant through the ingestion path. */
export function observe(
  pool: pg.Pool,
  sellerId: number,
  at: string | Date,
  observations: Observation[],
  mode: 'full' | 'partial' = 'full',
) {
  return ingestObservations(pool, { sellerId, source: 'test', mode, observedAt: new Date(at) }, observations);
}

/** An organisation with a license and one user; returns their ids. */
export async function insertOrgWithLicense(
  pool: pg.Pool,
  l: {
    orgName?: string;
    sellers: number[];
    pivots: number[];
    currencies: string[];
    modules: string[];
    brands?: number[];
    classifications?: number[];
  },
): Promise<{ orgId: number; licenseId: number }> {
  const { rows: o } = await pool.query<{ id: number }>(
    'insert into organisations (name) values ($1) returning id',
    [l.orgName ?? 'Org de prueba'],
  );
  const orgId = o[0].id;
  const { rows: li } = await pool.query<{ id: number }>(
    'insert into licenses (org_id) values ($1) returning id',
    [orgId],
  );
  const licenseId = li[0].id;
  const ins = (table: string, col: string, values: (number | string)[]) =>
    values.length
      ? pool.query(
          `insert into ${table} (license_id, ${col}) select $1, unnest($2::${typeof values[0] === 'number' ? 'int' : 'text'}[])`,
          [licenseId, values],
        )
      : Promise.resolve();
  await ins('license_sellers', 'seller_id', l.sellers);
  await ins('license_pivots', 'seller_id', l.pivots);
  await ins('license_currencies', 'currency', l.currencies);
  await ins('license_modules', 'module_code', l.modules);
  await ins('license_brands', 'brand_id', l.brands ?? []);
  await ins('license_classifications', 'classification_id', l.classifications ?? []);
  return { orgId, licenseId };
}

/** A user of an organisation (name = email, pivot 5, CLP, password 'x'); returns its id. */
export async function insertUser(pool: pg.Pool, orgId: number, email: string): Promise<number> {
  const { rows } = await pool.query<{ id: number }>(
    `insert into users (org_id, email, name, password_hash, pivot_id, currency)
     values ($1, $2, $2, 'x', 5, 'CLP') returning id`,
    [orgId, email],
  );
  return rows[0].id;
}

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  type ApiKey,
  DEFAULT_TIMEZONE,
  type FeedSource,
  type ImportRun,
  type OperationsSeller,
} from '@vigia/domain';
import type { Queryable } from '../../db/database.js';
import { nextCronRun, parseCron } from './cron.js';

// SQL of Operaciones: sellers with freshness, sources, runs, rejections, API keys.

/** A seller without a scheduled source is stale when nothing was imported for it within this many hours. */
export const STALE_GRACE_HOURS = 26;
/** A scheduled seller is stale when a run its schedule called for has not landed this long after (hours). */
export const SCHEDULE_GRACE_HOURS = 1;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * Whether a seller's data is stale at `now`: never imported; or, with scheduled sources, a time one of
 * them fired after the last import (its cron in the organisation's zone) is more than SCHEDULE_GRACE_HOURS
 * past with nothing imported since (an hourly source failing for two hours, a daily one that did not run
 * today); without one, the last import is older than STALE_GRACE_HOURS.
 */
export function sellerStale(
  lastImport: Date | null,
  schedules: readonly string[],
  zone: string,
  now: Date,
): boolean {
  if (!lastImport) return true;
  const crons = schedules.flatMap((s) => {
    try {
      return [parseCron(s)];
    } catch {
      return []; // a schedule the server accepted parses; an old unreadable one says nothing
    }
  });
  if (!crons.length) return now.getTime() - lastImport.getTime() > STALE_GRACE_HOURS * 3_600_000;
  return crons.some((c) => {
    const due = nextCronRun(c, zone, lastImport);
    return due !== null && now.getTime() > due.getTime() + SCHEDULE_GRACE_HOURS * 3_600_000;
  });
}

/** Sellers the organisation sees on Operaciones: its license's and those it registered. */
export async function listSellers(
  db: Queryable,
  orgId: number,
  licenseId: number,
): Promise<OperationsSeller[]> {
  const { rows } = await db.query(
    `select s.id, s.name, s.country, s.currency, s.url, s.org_id = $1 as registered,
            exists (select 1 from license_pivots lp where lp.license_id = $2 and lp.seller_id = s.id) as own,
            greatest((select max(finished_at) from import_runs r where r.seller_id = s.id and r.status = 'succeeded'),
                     (select max(observed_at) from ingest_runs i where i.seller_id = s.id and i.status = 'succeeded')) as last_import_at,
            array(select src.schedule from import_sources src
                   where src.seller_id = s.id and src.org_id = $1 and src.deleted_at is null
                     and src.schedule is not null) as schedules
       from sellers s
      where s.org_id = $1 or s.id in (select seller_id from license_sellers where license_id = $2
                                      union select seller_id from license_pivots where license_id = $2)
      order by s.org_id = $1 desc, s.name`,
    [orgId, licenseId],
  );
  const zone = await orgTimezone(db, orgId);
  const now = new Date();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    country: r.country,
    currency: r.currency,
    url: r.url,
    own: r.own,
    registered: r.registered === true,
    last_import_at: iso(r.last_import_at),
    stale: sellerStale(r.last_import_at ? new Date(r.last_import_at) : null, r.schedules ?? [], zone, now),
  }));
}

/** Whether the organisation may configure data for a seller (licensed to it or registered by it). */
export async function sellerVisible(db: Queryable, orgId: number, licenseId: number, sellerId: number) {
  const { rowCount } = await db.query(
    `select 1 from sellers s where s.id = $3
        and (s.org_id = $1 or exists (select 1 from license_sellers where license_id = $2 and seller_id = s.id)
             or exists (select 1 from license_pivots where license_id = $2 and seller_id = s.id))`,
    [orgId, licenseId, sellerId],
  );
  return rowCount === 1;
}

/**
 * A crawl run's page counts (docs/metrics.md "Crawler and matching figures": their one home), as SQL over
 * `crawl_run_pages p` for the run `runId` (an SQL expression): planned = every page of the run, fetched =
 * requested from the site, then one count per final state.
 */
export const crawlPageCountsSql = (runId: string) => `(select json_build_object(
    'planned', count(*), 'fetched', count(*) filter (where p.attempts > 0),
    'unchanged', count(*) filter (where p.state = 'unchanged'),
    'extracted', count(*) filter (where p.state = 'extracted'),
    'rejected', count(*) filter (where p.state = 'rejected'),
    'failed', count(*) filter (where p.state = 'failed'))
  from crawl_run_pages p where p.run_id = ${runId})`;

const RUN_COLUMNS = `r.id, r.source_id, r.source_kind, r.seller_id, r.status, r.trigger, r.created_at, r.started_at,
  r.finished_at, r.rows_read, r.rows_written, r.rows_changed, r.rows_rejected, r.unpublished, r.error,
  case when r.source_kind = 'crawl' then ${crawlPageCountsSql('r.id')} end as pages`;

// biome-ignore lint/suspicious/noExplicitAny: a row of RUN_COLUMNS
export function runOut(r: any): ImportRun {
  return {
    id: Number(r.id),
    source_id: r.source_id,
    source_kind: r.source_kind,
    seller_id: r.seller_id,
    status: r.status,
    trigger: r.trigger,
    created_at: iso(r.created_at)!,
    started_at: iso(r.started_at),
    finished_at: iso(r.finished_at),
    duration_ms:
      r.started_at && r.finished_at
        ? new Date(r.finished_at).getTime() - new Date(r.started_at).getTime()
        : null,
    rows_read: r.rows_read,
    rows_written: r.rows_written,
    rows_changed: r.rows_changed,
    rows_rejected: r.rows_rejected,
    unpublished: r.unpublished,
    error: r.error,
    pages: r.pages ?? null,
  };
}

export async function listRuns(db: Queryable, orgId: number, sourceId?: number): Promise<ImportRun[]> {
  const { rows } = await db.query(
    `select ${RUN_COLUMNS} from import_runs r
      where r.org_id = $1 and ($2::int is null or r.source_id = $2)
      order by r.created_at desc, r.id desc limit 100`,
    [orgId, sourceId ?? null],
  );
  return rows.map(runOut);
}

export async function getRun(db: Queryable, orgId: number, runId: number): Promise<ImportRun | null> {
  const { rows } = await db.query(
    `select ${RUN_COLUMNS} from import_runs r where r.id = $1 and r.org_id = $2`,
    [runId, orgId],
  );
  return rows[0] ? runOut(rows[0]) : null;
}

const SOURCE_COLUMNS = `s.id, s.org_id, s.seller_id, s.kind, s.name, s.origin, s.url, s.format, s.encoding, s.mapping,
  s.schedule, s.mode, s.file_path, s.created_at,
  case when jsonb_typeof(s.settings->'urls') = 'array' then jsonb_array_length(s.settings->'urls') else 0 end as crawl_urls,
  s.settings->'sitemaps' as crawl_sitemaps, s.settings->>'pattern' as crawl_pattern,
  (select row_to_json(x) from (select ${RUN_COLUMNS} from import_runs r where r.source_id = s.id
    order by r.created_at desc, r.id desc limit 1) x) as last_run`;

export interface SourceRecord extends FeedSource {
  org_id: number;
  file_path: string | null;
}

// biome-ignore lint/suspicious/noExplicitAny: a row of SOURCE_COLUMNS
function sourceOut(r: any): SourceRecord {
  return {
    id: r.id,
    org_id: r.org_id,
    seller_id: r.seller_id,
    kind: r.kind,
    name: r.name,
    origin: r.origin,
    url: r.url,
    format: r.format,
    encoding: r.encoding,
    mapping: r.mapping ?? {},
    schedule: r.schedule,
    mode: r.mode,
    has_file: r.origin === 'upload' && !!r.file_path,
    crawl:
      r.kind === 'crawl'
        ? {
            urls: r.crawl_urls,
            sitemaps: Array.isArray(r.crawl_sitemaps) ? r.crawl_sitemaps : [],
            pattern: r.crawl_pattern ?? null,
          }
        : null,
    file_path: r.file_path,
    created_at: iso(r.created_at)!,
    last_run: r.last_run ? runOut(r.last_run) : null,
  };
}

export const publicSource = ({ org_id: _o, file_path: _f, ...s }: SourceRecord): FeedSource => s;

export async function listSources(db: Queryable, orgId: number): Promise<SourceRecord[]> {
  const { rows } = await db.query(
    `select ${SOURCE_COLUMNS} from import_sources s where s.org_id = $1 and s.deleted_at is null order by s.id`,
    [orgId],
  );
  return rows.map(sourceOut);
}

export async function getSource(db: Queryable, orgId: number, id: number): Promise<SourceRecord | null> {
  const { rows } = await db.query(
    `select ${SOURCE_COLUMNS} from import_sources s where s.id = $1 and s.org_id = $2 and s.deleted_at is null`,
    [id, orgId],
  );
  return rows[0] ? sourceOut(rows[0]) : null;
}

export async function orgTimezone(db: Queryable, orgId: number): Promise<string> {
  const { rows } = await db.query<{ timezone: string }>(
    'select market_zone as timezone from organisations where id = $1',
    [orgId],
  );
  return rows[0]?.timezone ?? DEFAULT_TIMEZONE;
}

// ───────── API keys ─────────

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

// biome-ignore lint/suspicious/noExplicitAny: an api_keys row
const keyOut = (r: any): ApiKey => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  seller_ids: r.seller_ids,
  created_at: iso(r.created_at)!,
  last_used_at: iso(r.last_used_at),
  revoked_at: iso(r.revoked_at),
});

/** A new key: `vk_<8 hex>_<secret>`; only its SHA-256 is stored. Returns the key (shown once) and the row. */
export async function createApiKey(
  db: Queryable,
  orgId: number,
  userId: number,
  name: string,
  sellerIds: number[],
): Promise<{ key: string; item: ApiKey }> {
  const prefix = `vk_${randomBytes(4).toString('hex')}`;
  const key = `${prefix}_${randomBytes(32).toString('base64url')}`;
  const { rows } = await db.query(
    `insert into api_keys (org_id, name, prefix, key_hash, seller_ids, created_by)
     values ($1, $2, $3, $4, $5, $6) returning *`,
    [orgId, name, prefix, sha256(key), [...new Set(sellerIds)].sort((a, b) => a - b), userId],
  );
  return { key, item: keyOut(rows[0]) };
}

export async function listApiKeys(db: Queryable, orgId: number): Promise<ApiKey[]> {
  const { rows } = await db.query('select * from api_keys where org_id = $1 order by id desc', [orgId]);
  return rows.map(keyOut);
}

export async function revokeApiKey(db: Queryable, orgId: number, id: number): Promise<boolean> {
  const { rowCount } = await db.query(
    'update api_keys set revoked_at = coalesce(revoked_at, now()) where id = $1 and org_id = $2',
    [id, orgId],
  );
  return rowCount === 1;
}

export interface KeyPrincipal {
  id: number;
  orgId: number;
  prefix: string;
  sellerIds: number[];
}

/** The key's record when it is valid and not revoked (its last use is recorded); null otherwise. */
export async function verifyApiKey(db: Queryable, key: string): Promise<KeyPrincipal | null> {
  const m = /^(vk_[0-9a-f]{8})_[A-Za-z0-9_-]{20,100}$/.exec(key);
  if (!m) return null;
  const { rows } = await db.query(
    'select id, org_id, prefix, key_hash, seller_ids from api_keys where prefix = $1 and revoked_at is null',
    [m[1]],
  );
  const r = rows[0];
  if (!r) return null;
  const a = Buffer.from(sha256(key), 'hex');
  const b = Buffer.from(r.key_hash, 'hex');
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  await db.query('update api_keys set last_used_at = now() where id = $1', [r.id]);
  return { id: r.id, orgId: r.org_id, prefix: r.prefix, sellerIds: r.seller_ids };
}

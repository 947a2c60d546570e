import type pg from 'pg';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Queryable } from '../../db/database.js';
import { FetchError, safeFetch } from '../../platform/http/index.js';
import { crawlPageCountsSql, requeueRun, startRun } from '../feeds/index.js';
import { ingestObservations, type Observation } from '../ingest/index.js';
import { enqueueSellerMatching } from '../matching/index.js';
import { HostScheduler, parseRobots, type Robots } from './politeness.js';
import { type PageOutcome, readPage } from './read-page.js';
import { readSitemap, urlPattern } from './sitemap.js';

// One crawl run, start to end (docs/architecture.md "Crawler"):
//   plan    the source's URLs, and the pages its sitemaps list (index and gzip included, a URL pattern
//           applied), written once as the run's pages, each 'planned';
//   fetch   host by host, politely: robots.txt first (cached per host), one request at a time per host
//           spaced by the delay (raised by Crawl-delay), hosts in parallel so a slow one holds no other;
//   read    each page (read-page.ts): unchanged (304), extracted, rejected (with its reason) or failed;
//   land    every few pages: their observations go to ingestObservations (partial: a crawl never
//           unpublishes what it did not visit), THEN the pages are marked done — so a worker killed
//           mid-crawl resumes from the pages still planned and re-fetches nothing that landed.
// A doubted reading never becomes a price: the listing keeps its last trusted one.

export const MAX_PLANNED_PAGES = 100_000;
const MAX_SITEMAP_FILES = 200;
const MAX_HOSTS_IN_FLIGHT = 8;
const FLUSH_PAGES = 50;
const FLUSH_MS = 5_000;
/** Consecutive failures after which a host is left for the next run. */
const HOST_FAILURE_LIMIT = 5;

export const crawlSettingsSchema = z.object({
  urls: z.array(z.string().max(2_048)).max(MAX_PLANNED_PAGES).default([]),
  sitemaps: z.array(z.string().max(2_048)).max(100).default([]),
  pattern: z.string().max(200).nullable().default(null),
});
export type CrawlSettings = z.infer<typeof crawlSettingsSchema>;

export interface CrawlDeps {
  pool: pg.Pool;
  config: Pick<
    Config,
    'FETCH_ALLOW_PRIVATE' | 'CRAWLER_CONTACT_URL' | 'CRAWLER_DELAY_MS' | 'CRAWLER_HOST_CONCURRENCY'
  >;
}

export interface CrawlCounts {
  planned: number;
  /** requested from the site (at least one attempt): not those robots.txt forbade or a failing host skipped */
  fetched: number;
  unchanged: number;
  extracted: number;
  rejected: number;
  failed: number;
}

export interface CrawlRunRow {
  id: number;
  org_id: number;
  source_id: number | null;
  seller_id: number;
  requested_by: number | null;
}

export interface CrawlHooks {
  onProgress?: (
    run: CrawlRunRow,
    c: CrawlCounts & { status: 'running' | 'succeeded' | 'failed'; error: string | null },
  ) => void;
  /** the run's pages stopped giving products that they gave before (a redesign or a block) */
  onBroken?: (run: CrawlRunRow, detail: { pages: number; sellerName: string }) => Promise<void>;
  sleep?: (ms: number) => Promise<void>;
}

export class CrawlError extends Error {}

export function crawlerUserAgent(config: Pick<Config, 'CRAWLER_CONTACT_URL'>): string {
  return `VigiaBot/1.0 (+${config.CRAWLER_CONTACT_URL})`;
}

function httpUrl(raw: string): string | null {
  try {
    const u = new URL(raw.trim());
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    u.hash = '';
    return u.href;
  } catch {
    return null;
  }
}

/** The pages a run visits: the listed URLs, then those of the sitemaps (followed through indexes). */
export async function planPages(
  settings: CrawlSettings,
  deps: CrawlDeps,
): Promise<{ urls: string[]; problems: string[] }> {
  const seen = new Set<string>();
  const problems: string[] = [];
  const add = (raw: string) => {
    const u = httpUrl(raw);
    if (!u) problems.push(`URL no válida: ${raw.slice(0, 120)}`);
    else if (seen.size < MAX_PLANNED_PAGES) seen.add(u);
  };
  for (const u of settings.urls) add(u);
  const pattern = urlPattern(settings.pattern);
  const queue = settings.sitemaps.map((s) => ({ url: s, depth: 0 }));
  let files = 0;
  while (queue.length && files < MAX_SITEMAP_FILES && seen.size < MAX_PLANNED_PAGES) {
    const { url, depth } = queue.shift()!;
    files++;
    try {
      const res = await safeFetch(url, {
        allowPrivate: deps.config.FETCH_ALLOW_PRIVATE,
        userAgent: crawlerUserAgent(deps.config),
        maxBytes: 100 * 1024 * 1024,
        timeoutMs: 60_000,
        accept: 'application/xml, text/xml, application/gzip, */*;q=0.5',
      });
      const entries = await readSitemap(res.body, pattern);
      if (entries.kind === 'sitemapindex') {
        if (depth < 3) for (const l of entries.locations) queue.push({ url: l, depth: depth + 1 });
      } else for (const l of entries.locations) add(l);
      if (entries.dropped)
        problems.push(`${entries.dropped} direcciones descartadas en ${url.slice(0, 120)}`);
    } catch (err) {
      problems.push(`sitemap ${url.slice(0, 120)}: ${(err as Error).message.slice(0, 200)}`);
    }
  }
  return { urls: [...seen], problems };
}

interface Remembered {
  etag: string | null;
  last_modified: string | null;
  last_observation: Observation | null;
  ok_runs: number;
}

interface PageRow {
  seq: number;
  url: string;
}

interface Done {
  page: PageRow;
  outcome: PageOutcome;
}

/** Robots of each host, kept for an hour in this process. */
const robotsCache = new Map<string, { robots: Robots; at: number }>();
const ROBOTS_TTL_MS = 3_600_000;

async function robotsOf(origin: string, deps: CrawlDeps): Promise<Robots> {
  const hit = robotsCache.get(origin);
  if (hit && Date.now() - hit.at < ROBOTS_TTL_MS) return hit.robots;
  const ua = crawlerUserAgent(deps.config);
  let robots: Robots;
  try {
    const res = await safeFetch(`${origin}/robots.txt`, {
      allowPrivate: deps.config.FETCH_ALLOW_PRIVATE,
      userAgent: ua,
      maxBytes: 512 * 1024,
      timeoutMs: 15_000,
      accept: 'text/plain',
    });
    let body = '';
    for await (const c of res.body) body += c.toString();
    robots = parseRobots(`${origin}/robots.txt`, res.status, body, ua);
  } catch (err) {
    // 4xx: no rules (everything allowed); 5xx or unreachable: the site may be down — nothing is fetched.
    const status = err instanceof FetchError && err.status ? err.status : 503;
    robots = parseRobots(`${origin}/robots.txt`, status, '', ua);
  }
  if (robotsCache.size > 10_000) robotsCache.clear();
  robotsCache.set(origin, { robots, at: Date.now() });
  return robots;
}

/** Forgets cached robots.txt files (tests change them between runs). */
export function clearRobotsCache(): void {
  robotsCache.clear();
}

async function sellerOf(db: Queryable, sellerId: number) {
  const { rows } = await db.query<{ name: string; country: string; currency: string }>(
    'select name, country, currency from sellers where id = $1',
    [sellerId],
  );
  return rows[0] ?? null;
}

async function countsOf(db: Queryable, runId: number): Promise<CrawlCounts> {
  const { rows } = await db.query<{ c: CrawlCounts }>(`select ${crawlPageCountsSql('$1')} as c`, [runId]);
  return rows[0].c;
}

/**
 * Runs (or resumes, after a killed worker) one crawl run. A source that fails as a whole (no page to
 * visit, the seller gone) is recorded as failed with its reason; a database error puts the run back in the
 * queue and is rethrown so the job is retried — and resumes from the pages still planned.
 */
export async function executeCrawlRun(
  deps: CrawlDeps,
  runId: number,
  hooks: CrawlHooks = {},
): Promise<CrawlCounts> {
  const { pool } = deps;
  const run: CrawlRunRow | null = await startRun(pool, runId, 'crawl', true);
  if (!run) return countsOf(pool, runId); // done already (a job delivered twice)
  const progress = async (status: 'running' | 'succeeded' | 'failed', error: string | null) => {
    const c = await countsOf(pool, runId);
    await pool.query(
      `update import_runs set rows_read = $2, rows_written = $3, rows_rejected = $4 where id = $1`,
      [
        runId,
        c.unchanged + c.extracted + c.rejected + c.failed,
        c.extracted + c.unchanged,
        c.rejected + c.failed,
      ],
    );
    hooks.onProgress?.(run, { ...c, status, error });
    return c;
  };
  try {
    const { rows: src } = await pool.query<{ settings: unknown; seller_id: number }>(
      `select settings, seller_id from import_sources where id = $1 and deleted_at is null and kind = 'crawl'`,
      [run.source_id],
    );
    if (!src[0]) throw new CrawlError('la fuente ya no existe');
    const seller = await sellerOf(pool, run.seller_id);
    if (!seller) throw new CrawlError('el eCommerce ya no existe');
    const settings = crawlSettingsSchema.parse(src[0].settings ?? {});

    // Plan once: a resumed run keeps its pages (and what they came to).
    const { rows: planned } = await pool.query<{ n: number }>(
      'select count(*)::int as n from crawl_run_pages where run_id = $1',
      [runId],
    );
    if (planned[0].n === 0) {
      const plan = await planPages(settings, deps);
      if (!plan.urls.length) {
        throw new CrawlError(
          plan.problems.length
            ? `ninguna página que visitar (${plan.problems[0]})`
            : 'ninguna página que visitar',
        );
      }
      await pool.query(
        `insert into crawl_run_pages (run_id, seq, url)
         select $1, s, u from unnest($2::text[]) with ordinality as t(u, s) on conflict do nothing`,
        [runId, plan.urls],
      );
    }
    await progress('running', null);
    await crawlPlannedPages(deps, run, seller, hooks, () => void progress('running', null));
    const counts = await progress('running', null);
    await flagBrokenSource(deps, run, seller.name, hooks);
    await pool.query(
      `update import_runs set status = 'succeeded', finished_at = clock_timestamp() where id = $1`,
      [runId],
    );
    hooks.onProgress?.(run, { ...counts, status: 'succeeded', error: null });
    return counts;
  } catch (err) {
    if (err instanceof CrawlError) {
      await pool.query(
        `update import_runs set status = 'failed', finished_at = clock_timestamp(), error = $2 where id = $1`,
        [runId, err.message.slice(0, 2_000)],
      );
      const c = await countsOf(pool, runId);
      hooks.onProgress?.(run, { ...c, status: 'failed', error: err.message });
      return c;
    }
    await requeueRun(pool, runId, err);
    throw err;
  }
}

async function crawlPlannedPages(
  deps: CrawlDeps,
  run: CrawlRunRow,
  seller: { country: string; currency: string },
  hooks: CrawlHooks,
  onFlushed: () => void,
): Promise<void> {
  const { pool, config } = deps;
  const { rows: pages } = await pool.query<PageRow>(
    `select seq, url from crawl_run_pages where run_id = $1 and state = 'planned' order by seq`,
    [run.id],
  );
  if (!pages.length) return;
  const { rows: memory } = await pool.query<Remembered & { url: string }>(
    `select url, etag, last_modified, last_observation, ok_runs from crawl_pages
      where source_id = $1 and url = any($2::text[])`,
    [run.source_id, pages.map((p) => p.url)],
  );
  const remembered = new Map(memory.map((m) => [m.url, m]));

  const scheduler = new HostScheduler(
    {
      userAgent: crawlerUserAgent(config),
      delayMs: config.CRAWLER_DELAY_MS,
      concurrencyPerHost: config.CRAWLER_HOST_CONCURRENCY,
    },
    Date.now,
    hooks.sleep,
  );
  const byHost = new Map<string, PageRow[]>();
  for (const p of pages) {
    const origin = new URL(p.url).origin;
    const list = byHost.get(origin) ?? [];
    list.push(p);
    byHost.set(origin, list);
  }

  const lastTrusted = async (productId: string): Promise<number | null> => {
    const { rows } = await pool.query<{ p: string | null }>(
      `select lc.effective_price as p from products pr join listing_current lc on lc.product_id = pr.id
        where pr.seller_id = $1 and pr.product_id = $2`,
      [run.seller_id, productId],
    );
    return rows[0]?.p == null ? null : Number(rows[0].p);
  };

  let buffer: Done[] = [];
  let lastFlush = Date.now();
  let flushing: Promise<void> = Promise.resolve();
  const flush = () => {
    const batch = buffer;
    buffer = [];
    lastFlush = Date.now();
    flushing = flushing.then(() =>
      batch.length ? landPages(deps, run, batch, remembered).then(onFlushed) : undefined,
    );
    return flushing;
  };
  const record = async (d: Done) => {
    buffer.push(d);
    if (buffer.length >= FLUSH_PAGES || Date.now() - lastFlush >= FLUSH_MS) await flush();
  };

  const crawlHost = async (origin: string, list: PageRow[]) => {
    const host = new URL(origin).host;
    const robots = await robotsOf(origin, deps);
    scheduler.setRobots(host, robots);
    let next = 0;
    const lane = async () => {
      while (next < list.length) {
        const page = list[next++];
        if (!robots.isAllowed(page.url)) {
          await record({ page, outcome: refused('robots.txt lo prohíbe', null) });
          continue;
        }
        if (scheduler.failing(host, HOST_FAILURE_LIMIT)) {
          await record({
            page,
            outcome: refused(
              'el sitio falló repetidamente: se reintentará en la próxima ejecución',
              null,
              'failed',
            ),
          });
          continue;
        }
        const memo = remembered.get(page.url);
        await scheduler.acquire(host);
        const outcome = await readPage(page.url, {
          seller,
          fetch: { allowPrivate: config.FETCH_ALLOW_PRIVATE, userAgent: crawlerUserAgent(config) },
          etag: memo?.etag,
          lastModified: memo?.last_modified,
          lastTrustedPrice: lastTrusted,
          sleep: hooks.sleep,
        }).catch((err: unknown): PageOutcome => {
          scheduler.release(host, { ok: false });
          throw err;
        });
        scheduler.release(host, { ok: outcome.state !== 'failed', retryAfterMs: outcome.retryAfterMs });
        await record({ page, outcome });
      }
    };
    await Promise.all(Array.from({ length: Math.min(config.CRAWLER_HOST_CONCURRENCY, list.length) }, lane));
  };

  // Hosts in parallel, a bounded number at a time.
  const hosts = [...byHost.entries()];
  let h = 0;
  await Promise.all(
    Array.from({ length: Math.min(MAX_HOSTS_IN_FLIGHT, hosts.length) }, async () => {
      while (h < hosts.length) {
        const [origin, list] = hosts[h++];
        await crawlHost(origin, list);
      }
    }),
  );
  await flush();
}

function refused(
  reason: string,
  detail: string | null,
  state: 'rejected' | 'failed' = 'rejected',
): PageOutcome {
  return {
    state,
    httpStatus: null,
    reason,
    detail,
    etag: null,
    lastModified: null,
    observation: null,
    productId: null,
    retryAfterMs: null,
    attempts: 0,
  };
}

/**
 * Lands a batch: its observations (extracted pages, and the remembered observation of unchanged ones,
 * which keeps those listings fresh) through ingestObservations, then — only then — the pages' states and
 * what is remembered of them.
 */
async function landPages(
  deps: CrawlDeps,
  run: CrawlRunRow,
  batch: Done[],
  remembered: Map<string, Remembered>,
): Promise<void> {
  const { pool } = deps;
  const observations = new Map<string, Observation>();
  for (const { page, outcome } of batch) {
    const obs =
      outcome.state === 'extracted'
        ? outcome.observation
        : outcome.state === 'unchanged'
          ? (remembered.get(page.url)?.last_observation ?? null)
          : null;
    if (obs) observations.set(obs.productId, obs);
  }
  if (observations.size) {
    await ingestObservations(
      pool,
      { sellerId: run.seller_id, source: 'crawler', mode: 'partial', observedAt: new Date() },
      [...observations.values()],
    );
  }
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(
      `update crawl_run_pages p set state = t.state, http_status = t.status, reason = t.reason, detail = t.detail,
              product_id = t.product_id, attempts = t.attempts, fetched_at = now()
         from unnest($2::int[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[], $8::int[])
              as t(seq, state, status, reason, detail, product_id, attempts)
        where p.run_id = $1 and p.seq = t.seq`,
      [
        run.id,
        batch.map((d) => d.page.seq),
        batch.map((d) => d.outcome.state),
        batch.map((d) => d.outcome.httpStatus),
        batch.map((d) => d.outcome.reason?.slice(0, 300) ?? null),
        batch.map((d) => d.outcome.detail?.slice(0, 500) ?? null),
        batch.map((d) => d.outcome.productId),
        batch.map((d) => d.outcome.attempts),
      ],
    );
    await client.query(
      `insert into crawl_pages as c (source_id, url, etag, last_modified, last_observation, product_id, ok_runs, last_state, last_reason, last_fetched_at)
       select $1, t.url, t.etag, t.last_modified, t.obs, t.product_id, t.ok, t.state, t.reason, now()
         from unnest($2::text[], $3::text[], $4::text[], $5::jsonb[], $6::text[], $7::int[], $8::text[], $9::text[])
              as t(url, etag, last_modified, obs, product_id, ok, state, reason)
       on conflict (source_id, url) do update set
         etag = coalesce(excluded.etag, c.etag),
         last_modified = coalesce(excluded.last_modified, c.last_modified),
         last_observation = coalesce(excluded.last_observation, c.last_observation),
         product_id = coalesce(excluded.product_id, c.product_id),
         ok_runs = c.ok_runs + excluded.ok_runs,
         last_state = excluded.last_state, last_reason = excluded.last_reason, last_fetched_at = now()`,
      [
        run.source_id,
        batch.map((d) => d.page.url),
        // validators are kept only from pages that were read: a rejected page is fetched whole next time
        batch.map((d) => (d.outcome.state === 'extracted' ? d.outcome.etag : null)),
        batch.map((d) => (d.outcome.state === 'extracted' ? d.outcome.lastModified : null)),
        batch.map((d) =>
          d.outcome.state === 'extracted' && d.outcome.observation
            ? JSON.stringify(d.outcome.observation)
            : null,
        ),
        batch.map((d) => d.outcome.productId),
        batch.map((d) => (d.outcome.state === 'extracted' ? 1 : 0)),
        batch.map((d) => d.outcome.state),
        batch.map((d) => d.outcome.reason),
      ],
    );
    // Listings that arrived or changed are matched to the pivots' catalogues by a worker job (one waits per seller).
    if (observations.size) await enqueueSellerMatching(client, run.seller_id);
    // Rejected and failed pages are the run's rejections too (Operaciones lists and exports them).
    const bad = batch.filter((d) => d.outcome.state === 'rejected' || d.outcome.state === 'failed');
    if (bad.length) {
      await client.query(
        `insert into import_rejections (run_id, seq, line, product_id, reason)
         select $1, s, s, u, r from unnest($2::int[], $3::text[], $4::text[]) as t(s, u, r)
         on conflict (run_id, seq) do update set product_id = excluded.product_id, reason = excluded.reason`,
        [
          run.id,
          bad.map((d) => d.page.seq),
          bad.map((d) => d.page.url.slice(0, 500)),
          bad.map((d) =>
            `${d.outcome.reason}${d.outcome.detail ? `: ${d.outcome.detail}` : ''}`.slice(0, 500),
          ),
        ],
      );
    }
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/**
 * A seller whose pages used to give products and now give none (a redesign, a block): one flag for the
 * run, not one per page — and none again for the runs that follow while it stays broken.
 */
async function flagBrokenSource(
  deps: CrawlDeps,
  run: CrawlRunRow,
  sellerName: string,
  hooks: CrawlHooks,
): Promise<void> {
  const { rows } = await deps.pool.query<{ fetched: number; read: number }>(
    `select count(*)::int as fetched, count(*) filter (where p.state in ('extracted', 'unchanged'))::int as read
       from crawl_run_pages p join crawl_pages c on c.source_id = $2 and c.url = p.url
      where p.run_id = $1 and p.state <> 'failed' and c.ok_runs > 0`,
    [run.id, run.source_id],
  );
  const { fetched, read } = rows[0];
  if (fetched >= 5 && read === 0) {
    await deps.pool.query(`update import_runs set error = $2 where id = $1`, [
      run.id,
      `${BROKEN_PREFIX} ${fetched} páginas que antes tenían datos de producto los tuvo ahora (¿rediseño o bloqueo del sitio?)`,
    ]);
    // Told once: while the source stays broken (its previous run was flagged too), no new notification.
    const { rows: prev } = await deps.pool.query<{ error: string | null }>(
      `select error from import_runs
        where source_id = $1 and source_kind = 'crawl' and id < $2 and status = 'succeeded'
        order by id desc limit 1`,
      [run.source_id, run.id],
    );
    if (!prev[0]?.error?.startsWith(BROKEN_PREFIX))
      await hooks.onBroken?.(run, { pages: fetched, sellerName });
  }
}

/** The start of the error of a run whose pages stopped giving products. */
const BROKEN_PREFIX = 'Ninguna de';

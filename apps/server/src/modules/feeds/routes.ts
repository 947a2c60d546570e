import { createReadStream, createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type FeedFormat, ingestRoutes, operationsRoutes, type PreviewResponse } from '@vigia/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {} from '../../app.js'; // FastifyInstance.deps
import { withTransaction } from '../../db/database.js';
import { AppError, badRequest, forbidden, notFound, unauthorized } from '../../lib/errors.js';
import { registerRoute } from '../../lib/route.js';
import { principalOf } from '../../lib/scope.js';
import { FetchError, safeFetch } from '../../platform/http/index.js';
import { CSV_TYPE, download, moduleBeside, task } from '../../platform/pool/index.js';
import type { Principal } from '../../plugins/auth.js';
import { releaseRollupZone, requestRollupZone } from '../ingest/index.js';
import { nextCronRun, parseCron } from './cron.js';
import { type RejectionRow, rejectionsCsv } from './download.js';
import { createRun, sellerTermsOf } from './import.js';
import { stopImports } from './import-pool.js';
import { enqueueRunOf } from './jobs.js';
import { FeedError, parseFeed } from './parse.js';
import { ingestPushedRows } from './push.js';
import {
  createApiKey,
  getRun,
  getSource,
  type KeyPrincipal,
  listApiKeys,
  listRuns,
  listSellers,
  listSources,
  orgTimezone,
  publicSource,
  revokeApiKey,
  sellerVisible,
  verifyApiKey,
} from './queries.js';
import { rowToObservation, type SellerTerms } from './row.js';

// Operaciones API (route table packages/domain/src/routes/operations.ts; docs/architecture.md "Feeds and
// the ingest API"). Every route but the machine ingest needs a signed-in ADMINISTRATOR of an organisation
// with a license in force; the machine ingest needs an API key scoped to the seller.

/** Rows shown by the preview. */
const PREVIEW_ROWS = 20;
/** Largest machine-ingest body (JSON batch or NDJSON). */
const INGEST_BODY_LIMIT = 10 * 1024 * 1024;
const INGEST_MAX_ROWS = 10_000;
/** A run's rejections CSV is written in the export pool, off the event loop (issue 26 finding 3). */
const rejectionsCsvTask = task(moduleBeside(import.meta.url, './download'), 'rejectionsCsv', rejectionsCsv);

const PALETTE = ['#5e35b1', '#00838f', '#ef6c00', '#2e7d32', '#ad1457', '#4e342e', '#283593', '#827717'];

/** The signed-in administrator of an organisation with a license in force (every Operaciones route). */
export function adminOf(req: FastifyRequest): Principal {
  const p = principalOf(req);
  if (!p.isAdmin) throw forbidden('Operaciones es solo para administradores de la organización', 'not_admin');
  if (!p.license.id) throw forbidden('La organización no tiene una licencia vigente', 'no_license');
  return p;
}

const feedsDir = (dataDir: string) => join(dataDir, 'feeds');

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: KeyPrincipal;
  }
}

export default async function feedsRoutesPlugin(app: FastifyInstance) {
  const { pool } = app.deps.db;
  const { config } = app.deps;
  // Scheduled sources are queued by the 'feeds-tick' schedule of jobs.ts (worker role).
  // Runs under way in the imports pool's thread end with their server (they go back to the queue).
  app.addHook('onClose', async () => stopImports(app.deps.db.url));

  // Uploaded files arrive as a binary body (read as a stream, limited as it is written).
  app.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));
  // Machine ingest as NDJSON: one JSON object per line, bounded like a JSON batch.
  app.addContentTypeParser(
    'application/x-ndjson',
    { parseAs: 'string', bodyLimit: INGEST_BODY_LIMIT },
    (_req, body, done) => {
      const rows: unknown[] = [];
      const lines = String(body).split(/\r?\n/);
      for (let i = 0; i < lines.length; i++) {
        if (!lines[i].trim()) continue;
        try {
          rows.push(JSON.parse(lines[i]));
        } catch {
          // a broken stream is the request's fault: nothing of it is ingested
          return done(badRequest(`rows: la línea ${i + 1} no es JSON válido`, 'rows'), undefined);
        }
      }
      done(null, { rows });
    },
  );

  // ───────── sellers ─────────

  registerRoute(app, operationsRoutes.sellers, async (req) => {
    const p = adminOf(req);
    return { items: await listSellers(pool, p.orgId, p.license.id) };
  });

  registerRoute(app, operationsRoutes.createSeller, async (req) => {
    const p = adminOf(req);
    const b = req.body;
    const ref = await pool.query<{ country: boolean; currency: boolean }>(
      `select exists (select 1 from countries where code = $1) as country,
              exists (select 1 from currencies where acronym = $2) as currency`,
      [b.country, b.currency],
    );
    if (!ref.rows[0].country) throw badRequest('country: país desconocido', 'country');
    if (!ref.rows[0].currency) throw badRequest('currency: moneda desconocida', 'currency');
    const id = await withTransaction(pool, async (c) => {
      const { rows } = await c.query<{ id: number }>(
        `insert into sellers (id, name, country, currency, color, url, org_id)
         values (nextval('registered_seller_id_seq'), $1, $2, $3,
                 ($4::text[])[1 + (currval('registered_seller_id_seq') % $5)::int], $6, $7)
         returning id`,
        [b.name, b.country, b.currency, PALETTE, PALETTE.length, b.url ?? null, p.orgId],
      );
      const sid = rows[0].id;
      await c.query('insert into license_sellers (license_id, seller_id) values ($1, $2)', [
        p.license.id,
        sid,
      ]);
      if (b.own)
        await c.query('insert into license_pivots (license_id, seller_id) values ($1, $2)', [
          p.license.id,
          sid,
        ]);
      await c.query(
        'insert into license_currencies (license_id, currency) values ($1, $2) on conflict do nothing',
        [p.license.id, b.currency],
      );
      return sid;
    });
    const seller = (await listSellers(pool, p.orgId, p.license.id)).find((s) => s.id === id);
    if (!seller) throw notFound();
    return seller;
  });

  // ───────── organisation settings ─────────

  registerRoute(app, operationsRoutes.settings, async (req) => {
    const p = adminOf(req);
    return { market_zone: await orgTimezone(pool, p.orgId) };
  });

  registerRoute(app, operationsRoutes.updateSettings, async (req) => {
    const p = adminOf(req);
    const zone = req.body.market_zone;
    // the zone computes days in SQL too: PostgreSQL must know it (its zone names, not only the runtime's)
    const known = await pool.query('select 1 from pg_timezone_names where name = $1', [zone]);
    if (!known.rowCount) throw badRequest('market_zone: zona horaria desconocida', 'market_zone');
    await withTransaction(pool, async (c) => {
      const { rows: before } = await c.query<{ market_zone: string }>(
        'select market_zone from organisations where id = $1 for update',
        [p.orgId],
      );
      await c.query('update organisations set market_zone = $2 where id = $1', [p.orgId, zone]);
      // the daily roll-up's days in that zone: built by the 'rollup-zone' job when no organisation used
      // it; the zone left, dropped by the same job when no organisation uses it any more
      await requestRollupZone(c, zone);
      if (before[0] && before[0].market_zone !== zone) await releaseRollupZone(c, before[0].market_zone);
      // the scheduled sources' next runs were computed in the old zone: recompute them in the new one
      const { rows } = await c.query<{ id: number; schedule: string }>(
        'select id, schedule from import_sources where org_id = $1 and deleted_at is null and schedule is not null',
        [p.orgId],
      );
      for (const r of rows) {
        let next: Date | null = null;
        try {
          next = nextCronRun(parseCron(r.schedule), zone, new Date());
        } catch {
          continue; // a schedule the server accepted parses; an old unreadable one keeps its next run
        }
        await c.query('update import_sources set next_run_at = $2 where id = $1', [r.id, next]);
      }
    });
    return { market_zone: await orgTimezone(pool, p.orgId) };
  });

  // ───────── sources ─────────

  const nextRunOf = async (orgId: number, schedule: string | null | undefined) => {
    if (!schedule) return null;
    let cron: ReturnType<typeof parseCron>;
    try {
      cron = parseCron(schedule);
    } catch (err) {
      throw badRequest(`schedule: ${(err as Error).message}`, 'schedule');
    }
    return nextCronRun(cron, await orgTimezone(pool, orgId), new Date());
  };

  const sourceOr404 = async (orgId: number, id: number) => {
    const s = await getSource(pool, orgId, id);
    if (!s) throw notFound('No existe esa fuente');
    return s;
  };

  registerRoute(
    app,
    operationsRoutes.createCrawlSource,
    async (req) => {
      const p = adminOf(req);
      const b = req.body;
      if (!(await sellerVisible(pool, p.orgId, p.license.id, b.seller_id)))
        throw badRequest('seller_id: eCommerce fuera de la licencia de la organización', 'seller_id');
      const next = await nextRunOf(p.orgId, b.schedule);
      const settings = { urls: [...new Set(b.urls)], sitemaps: b.sitemaps, pattern: b.pattern || null };
      const { rows } = await pool.query<{ id: number }>(
        `insert into import_sources (org_id, seller_id, kind, name, origin, url, format, mode, settings, schedule,
                                   next_run_at, created_by)
       values ($1, $2, 'crawl', $3, 'url', null, 'schema-org', 'delta', $4, $5, $6, $7) returning id`,
        [p.orgId, b.seller_id, b.name, JSON.stringify(settings), b.schedule ?? null, next, p.userId],
      );
      return publicSource(await sourceOr404(p.orgId, rows[0].id));
    },
    { bodyLimit: 24 * 1024 * 1024 },
  );

  registerRoute(app, operationsRoutes.sources, async (req) => {
    const p = adminOf(req);
    return { items: (await listSources(pool, p.orgId)).map(publicSource) };
  });

  registerRoute(app, operationsRoutes.createSource, async (req) => {
    const p = adminOf(req);
    const b = req.body;
    if (!(await sellerVisible(pool, p.orgId, p.license.id, b.seller_id)))
      throw badRequest('seller_id: eCommerce fuera de la licencia de la organización', 'seller_id');
    const next = await nextRunOf(p.orgId, b.schedule);
    const { rows } = await pool.query<{ id: number }>(
      `insert into import_sources (org_id, seller_id, kind, name, origin, url, format, encoding, mapping, schedule,
                                   next_run_at, mode, created_by)
       values ($1, $2, 'feed', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning id`,
      [
        p.orgId,
        b.seller_id,
        b.name,
        b.origin,
        b.origin === 'url' ? b.url : null,
        b.format,
        b.encoding,
        JSON.stringify(b.mapping),
        b.schedule ?? null,
        next,
        b.mode,
        p.userId,
      ],
    );
    return publicSource(await sourceOr404(p.orgId, rows[0].id));
  });

  registerRoute(app, operationsRoutes.updateSource, async (req) => {
    const p = adminOf(req);
    const s = await sourceOr404(p.orgId, req.params.id);
    const b = req.body;
    if (b.url !== undefined && s.origin !== 'url')
      throw badRequest('url: la fuente es un archivo subido', 'url');
    const next = b.schedule !== undefined ? await nextRunOf(p.orgId, b.schedule) : undefined;
    await pool.query(
      `update import_sources set name = coalesce($2, name), url = coalesce($3, url), format = coalesce($4, format),
              encoding = coalesce($5, encoding), mapping = coalesce($6::jsonb, mapping),
              schedule = case when $7 then $8 else schedule end, next_run_at = case when $7 then $9 else next_run_at end,
              mode = coalesce($10, mode),
              etag = case when $3 is null and $4 is null and $5 is null and $6::jsonb is null then etag end,
              last_modified = case when $3 is null and $4 is null and $5 is null and $6::jsonb is null then last_modified end
        where id = $1`,
      [
        s.id,
        b.name ?? null,
        b.url ?? null,
        b.format ?? null,
        b.encoding ?? null,
        b.mapping ? JSON.stringify(b.mapping) : null,
        b.schedule !== undefined,
        b.schedule ?? null,
        next ?? null,
        b.mode ?? null,
      ],
    );
    return publicSource(await sourceOr404(p.orgId, s.id));
  });

  registerRoute(app, operationsRoutes.deleteSource, async (req) => {
    const p = adminOf(req);
    const s = await sourceOr404(p.orgId, req.params.id);
    await pool.query('update import_sources set deleted_at = now(), schedule = null where id = $1', [s.id]);
    if (s.file_path) rmSync(s.file_path, { force: true });
    return { detail: 'Fuente eliminada' };
  });

  registerRoute(app, operationsRoutes.uploadFile, async (req) => {
    const p = adminOf(req);
    const s = await sourceOr404(p.orgId, req.params.id);
    if (s.origin !== 'upload') throw badRequest('La fuente se descarga de una URL; no recibe archivos');
    const body = req.body as unknown;
    if (!body || typeof (body as Readable).pipe !== 'function')
      throw new AppError(415, 'unsupported_media_type', 'Envíe el archivo como application/octet-stream');
    const dir = feedsDir(config.DATA_DIR);
    mkdirSync(dir, { recursive: true });
    const final = join(dir, `source-${s.id}.feed`);
    const tmp = `${final}.${process.pid}.${Date.now()}.part`;
    let size = 0;
    try {
      await pipeline(
        body as Readable,
        async function* (src: AsyncIterable<Buffer>) {
          for await (const chunk of src) {
            size += chunk.length;
            if (size > config.FEED_MAX_BYTES)
              throw new AppError(
                413,
                'too_large',
                `El archivo supera el límite de ${Math.round(config.FEED_MAX_BYTES / 1048576)} MB`,
              );
            yield chunk;
          }
        },
        createWriteStream(tmp),
      );
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
    if (size === 0) {
      rmSync(tmp, { force: true });
      throw badRequest('El archivo está vacío');
    }
    renameSync(tmp, final);
    const nameHeader = req.headers['x-file-name'];
    const fileName = typeof nameHeader === 'string' ? decodeURIComponent(nameHeader).slice(0, 200) : null;
    await pool.query(
      'update import_sources set file_path = $2, file_name = $3, file_size = $4, etag = null, last_modified = null where id = $1',
      [s.id, final, fileName, size],
    );
    return publicSource(await sourceOr404(p.orgId, s.id));
  });

  registerRoute(app, operationsRoutes.preview, async (req) => {
    const p = adminOf(req);
    const s = await sourceOr404(p.orgId, req.params.id);
    if (s.kind === 'crawl') throw badRequest('Una fuente de rastreo no tiene vista previa de filas');
    const format = (req.body.format ?? s.format) as FeedFormat;
    const encoding = req.body.encoding ?? s.encoding;
    const mapping = req.body.mapping ?? s.mapping;
    const terms = (await sellerTermsOf(pool, s.seller_id)) as SellerTerms;
    let input: Readable;
    if (s.origin === 'upload') {
      if (!s.file_path) throw badRequest('Suba primero el archivo de la fuente');
      input = createReadStream(s.file_path, { highWaterMark: 64 * 1024 });
    } else {
      try {
        input = (
          await safeFetch(s.url ?? '', {
            allowPrivate: config.FETCH_ALLOW_PRIVATE,
            maxBytes: config.FEED_MAX_BYTES,
            timeoutMs: 30_000,
          })
        ).body;
      } catch (err) {
        if (err instanceof FetchError) throw badRequest(`No se pudo descargar el feed: ${err.message}`);
        throw err;
      }
    }
    const out: PreviewResponse = { columns: [], rows: [], mapping: { ...mapping } as Record<string, string> };
    const seen = new Set<string>();
    const now = new Date();
    try {
      for await (const it of parseFeed(input, { format, encoding, mapping })) {
        if (it.kind === 'columns') {
          out.columns = it.columns;
          out.mapping = it.mapping as Record<string, string>;
          continue;
        }
        if (it.kind === 'error') {
          out.rows.push({
            line: it.line,
            values: {},
            product_id: null,
            title: null,
            price: null,
            sale_price: null,
            currency: null,
            error: it.error,
          });
        } else {
          for (const k of Object.keys(it.row)) seen.add(k);
          const r = rowToObservation(it.row, terms, now);
          out.rows.push({
            line: it.line,
            values: it.row as Record<string, string>,
            product_id: r.ok ? r.obs.productId : r.id,
            title: r.ok ? (r.obs.name ?? null) : (it.row.title ?? null),
            price: r.ok && r.obs.normalPrice !== null ? String(r.obs.normalPrice) : null,
            sale_price: r.ok && r.obs.salePrice != null ? String(r.obs.salePrice) : null,
            currency: r.ok ? terms.currency : null,
            error: r.ok ? null : r.reason,
          });
        }
        if (out.rows.length >= PREVIEW_ROWS) break;
      }
    } catch (err) {
      if (err instanceof FeedError || err instanceof FetchError)
        throw badRequest(`No se puede leer el archivo: ${err.message}`);
      throw err;
    } finally {
      input.destroy();
    }
    if (format === 'merchant-xml') out.columns = [...seen];
    return out;
  });

  registerRoute(app, operationsRoutes.importNow, async (req) => {
    const p = adminOf(req);
    const s = await sourceOr404(p.orgId, req.params.id);
    if (s.origin === 'upload' && !s.file_path) throw badRequest('Suba primero el archivo de la fuente');
    const runId = await withTransaction(pool, async (c) => {
      // One run of a source at a time: a pending one is answered instead of a second.
      await c.query('select id from import_sources where id = $1 for update', [s.id]);
      const { rows } = await c.query<{ id: string }>(
        `select id from import_runs where source_id = $1 and status in ('queued', 'running') order by id desc limit 1`,
        [s.id],
      );
      if (rows[0]) return Number(rows[0].id);
      const id = await createRun(c, s, 'manual', p.userId);
      await enqueueRunOf(c, s.kind, id);
      return id;
    });
    const run = await getRun(pool, p.orgId, runId);
    if (!run) throw notFound();
    return { run };
  });

  registerRoute(app, operationsRoutes.runs, async (req) => {
    const p = adminOf(req);
    return { items: await listRuns(pool, p.orgId, req.query.source_id) };
  });

  registerRoute(app, operationsRoutes.rejections, async (req, reply) => {
    const p = adminOf(req);
    return download(reply, async (write) => {
      const run = await getRun(pool, p.orgId, req.params.id);
      if (!run) throw notFound('No existe esa ejecución');
      const { rows } = await pool.query<RejectionRow>(
        'select line, product_id, reason from import_rejections where run_id = $1 order by seq',
        [run.id],
      );
      return {
        type: CSV_TYPE,
        name: `rechazos-ejecucion-${run.id}.csv`,
        body: await write(rejectionsCsvTask, rows),
      };
    });
  });

  // ───────── crawl runs' pages (issue 28) ─────────

  registerRoute(app, operationsRoutes.runPages, async (req) => {
    const p = adminOf(req);
    const run = await getRun(pool, p.orgId, req.params.id);
    if (!run) throw notFound('No existe esa ejecución');
    const q = req.query;
    const { rows } = await pool.query(
      `select seq, url, state, http_status, reason, detail, product_id, fetched_at, count(*) over ()::int as total
         from crawl_run_pages where run_id = $1 and ($2::text is null or state = $2)
        order by seq limit $3 offset $4`,
      [run.id, q.state ?? null, q.page_size, (q.page - 1) * q.page_size],
    );
    let total = rows[0]?.total ?? 0;
    if (!rows.length && q.page > 1) {
      const c = await pool.query<{ n: number }>(
        'select count(*)::int as n from crawl_run_pages where run_id = $1 and ($2::text is null or state = $2)',
        [run.id, q.state ?? null],
      );
      total = c.rows[0].n;
    }
    return {
      total,
      items: rows.map((r) => ({
        seq: r.seq,
        url: r.url,
        state: r.state,
        http_status: r.http_status,
        reason: r.reason,
        detail: r.detail,
        product_id: r.product_id,
        fetched_at: r.fetched_at ? new Date(r.fetched_at).toISOString() : null,
      })),
    };
  });

  registerRoute(app, operationsRoutes.retryFailed, async (req) => {
    const p = adminOf(req);
    const old = await getRun(pool, p.orgId, req.params.id);
    if (!old) throw notFound('No existe esa ejecución');
    if (old.source_kind !== 'crawl' || old.source_id === null)
      throw badRequest('Solo las ejecuciones de rastreo reintentan páginas');
    const s = await sourceOr404(p.orgId, old.source_id);
    const runId = await withTransaction(pool, async (c) => {
      await c.query('select id from import_sources where id = $1 for update', [s.id]);
      const { rows: busy } = await c.query(
        `select 1 from import_runs where source_id = $1 and status in ('queued', 'running') limit 1`,
        [s.id],
      );
      if (busy.length) throw new AppError(409, 'run_pending', 'La fuente ya tiene una ejecución en curso');
      const { rows: failed } = await c.query<{ n: number }>(
        `select count(*)::int as n from crawl_run_pages where run_id = $1 and state = 'failed'`,
        [old.id],
      );
      if (!failed[0].n) throw badRequest('La ejecución no tiene páginas fallidas');
      const id = await createRun(c, s, 'manual', p.userId);
      // The new run's pages are planned up front: the crawl visits only these.
      await c.query(
        `insert into crawl_run_pages (run_id, seq, url)
         select $2, row_number() over (order by seq), url from crawl_run_pages where run_id = $1 and state = 'failed'`,
        [old.id, id],
      );
      await enqueueRunOf(c, 'crawl', id);
      return id;
    });
    const run = await getRun(pool, p.orgId, runId);
    if (!run) throw notFound();
    return { run };
  });

  // ───────── API keys ─────────

  registerRoute(app, operationsRoutes.apiKeys, async (req) => {
    const p = adminOf(req);
    return { items: await listApiKeys(pool, p.orgId) };
  });

  registerRoute(app, operationsRoutes.createApiKey, async (req) => {
    const p = adminOf(req);
    for (const id of req.body.seller_ids)
      if (!(await sellerVisible(pool, p.orgId, p.license.id, id)))
        throw badRequest(`seller_ids: el eCommerce ${id} está fuera de la licencia`, 'seller_ids');
    return createApiKey(pool, p.orgId, p.userId, req.body.name, req.body.seller_ids);
  });

  registerRoute(app, operationsRoutes.revokeApiKey, async (req) => {
    const p = adminOf(req);
    if (!(await revokeApiKey(pool, p.orgId, req.params.id))) throw notFound('No existe esa clave');
    return { detail: 'Clave revocada' };
  });

  // ───────── machine ingest ─────────

  const keyOf = (req: FastifyRequest) => {
    const h = req.headers.authorization;
    const m = typeof h === 'string' ? /^ApiKey\s+(\S+)$/i.exec(h.trim()) : null;
    if (m) return m[1];
    const x = req.headers['x-api-key'];
    return typeof x === 'string' ? x.trim() : null;
  };

  registerRoute(
    app,
    ingestRoutes.observations,
    async (req) => {
      const key = req.apiKey!;
      const sellerId = req.query.seller_id;
      if (!key.sellerIds.includes(sellerId))
        throw forbidden('La clave no tiene permiso para ese eCommerce', 'seller_not_in_key');
      // The organisation's license must still be in force and cover the seller.
      const { rows } = await pool.query<{ license_id: number }>(
        `select l.id as license_id from licenses l
          where l.org_id = $1 and (l.starts_on is null or l.starts_on <= current_date)
            and (l.ends_on is null or l.ends_on >= current_date)`,
        [key.orgId],
      );
      const license = rows[0]?.license_id;
      if (!license || !(await sellerVisible(pool, key.orgId, license, sellerId)))
        throw forbidden('El eCommerce no está en la licencia vigente de la organización', 'not_licensed');
      if (req.body.rows.length > INGEST_MAX_ROWS)
        throw badRequest(`rows: como máximo ${INGEST_MAX_ROWS} filas por envío`, 'rows');
      return ingestPushedRows(pool, key.orgId, sellerId, req.body.rows);
    },
    {
      bodyLimit: INGEST_BODY_LIMIT,
      onRequest: [
        async (req) => {
          const key = keyOf(req);
          if (!key) throw unauthorized('Falta la clave de API (Authorization: ApiKey <clave>)', 'no_api_key');
          const k = await verifyApiKey(pool, key);
          if (!k) throw unauthorized('Clave de API inválida o revocada', 'bad_api_key');
          req.apiKey = k;
        },
      ],
      config: {
        rateLimit: {
          max: config.INGEST_RATE_LIMIT_PER_MINUTE,
          timeWindow: '1 minute',
          keyGenerator: (req: FastifyRequest) => {
            const k = keyOf(req);
            return k ? `ingest:${k.slice(0, 11)}` : `ingest-ip:${req.ip}`;
          },
        },
      },
    },
  );
}

/** Scheduled sources whose time came: one run each (queued with its job), and their next time. */

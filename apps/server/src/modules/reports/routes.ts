import { createReadStream } from 'node:fs';
import {
  REPORT_TYPE_MODULES,
  type ReportType,
  reportsRoutes,
  reportTypeLicensed,
  subscriptionsRoutes,
} from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import type {} from '../../app.js'; // FastifyInstance.deps
import { withTransaction } from '../../db/database.js';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors.js';
import { registerRoute } from '../../lib/route.js';
import { principalOf, requesterOf } from '../../lib/scope.js';
import { attachment } from '../../lib/workbook.js';
import { resolveCurrency, resolvePivot, resolveSellers } from '../../market/index.js';
import { CSV_TYPE, XLSX_TYPE } from '../../platform/pool/index.js';
import { readFileLink, signFileLink } from './signing.js';
import {
  listSubscriptions,
  SEND_NOW_COOLDOWN_MS,
  sendSubscriptionNow,
  subscribe,
  unsubscribe,
  unsubscribeByLink,
} from './subscriptions.js';
import {
  activeTasks,
  announceTask,
  createTask,
  getTask,
  listTasks,
  MAX_ACTIVE_TASKS,
  settleAbandonedTasks,
  taskIdOfGsUrl,
  taskOut,
} from './tasks.js';

// Reports and subscriptions API (seed 001 §7; route table packages/domain/src/routes/reports.ts; contract
// packages/domain/src/reports.ts; docs/metrics.md "Reports", docs/architecture.md "Reports").

/** How long a link from /sign-report/ works. */
export const SIGNED_LINK_SECONDS = 15 * 60;

const gone = (detail: string) => new AppError(410, 'gone', detail);

/** A report type carries its module's data: the license must grant that module too (issue 26, finding 0). */
function requireReportType(modules: readonly string[], type: ReportType): void {
  if (!reportTypeLicensed(type, modules))
    throw forbidden(
      `Módulo no incluido en la licencia: ${REPORT_TYPE_MODULES[type].join(' o ')}`,
      'module_not_licensed',
    );
}

/** The one content type of each file format (the export pool's). */
const CONTENT_TYPES = { xlsx: XLSX_TYPE, csv: CSV_TYPE } as const;

const page = (title: string, text: string) =>
  `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${title} — Vigía</title></head><body style="font-family:sans-serif;max-width:36rem;margin:3rem auto;` +
  `padding:0 1rem;color:#2d1b4e"><h1>${title}</h1><p>${text}</p></body></html>`;

export default async function reportsRoutesPlugin(app: FastifyInstance) {
  const { pool } = app.deps.db;
  const { config } = app.deps;
  // ───────── reports ─────────

  registerRoute(app, reportsRoutes.create, async (req) => {
    const who = requesterOf(req);
    const b = req.body;
    requireReportType(who.principal.license.modules, b.report_type);
    const pivot = resolvePivot(who, b.pivot_id ?? null);
    const sellers = resolveSellers(who, b.sellers ?? null, pivot);
    const currency = resolveCurrency(who, b.currency ?? null);
    const { userId, license } = who.principal;
    await settleAbandonedTasks({ pool, config, log: req.log }, userId); // slots count only live tasks
    if ((await activeTasks(pool, userId)) >= MAX_ACTIVE_TASKS)
      throw new AppError(
        429,
        'too_many_reports',
        `Ya tiene ${MAX_ACTIVE_TASKS} reportes en curso; espere a que terminen`,
      );
    const task = await withTransaction(pool, (client) =>
      createTask(client, userId, {
        report_type: b.report_type,
        format: b.format,
        pivot,
        sellers,
        currency,
        roots: license.classifications,
        from: b.from_date,
        to: b.to_date,
      }),
    );
    announceTask(config, task);
    return { id: task.id, task: taskOut(task) };
  });

  registerRoute(app, reportsRoutes.list, async (req) => ({
    items: (await listTasks(pool, principalOf(req).userId)).map(taskOut),
  }));

  registerRoute(app, reportsRoutes.sign, async (req) => {
    const id = taskIdOfGsUrl(req.body.gs_url);
    if (!id) throw badRequest('gs_url: referencia de reporte no válida', 'gs_url');
    const task = await getTask(pool, id);
    if (!task) throw notFound();
    if (task.user_id !== principalOf(req).userId)
      throw forbidden('El reporte pertenece a otro usuario', 'foreign_report');
    if (task.status !== 'succeeded') throw badRequest('gs_url: el reporte aún no está listo', 'gs_url');
    if (!task.file_path || (task.expires_at && task.expires_at.getTime() <= Date.now()))
      throw gone('El archivo del reporte ya no está disponible');
    const expires = Math.min(
      Math.floor(Date.now() / 1000) + SIGNED_LINK_SECONDS,
      Math.floor((task.expires_at?.getTime() ?? Number.MAX_SAFE_INTEGER) / 1000),
    );
    const token = signFileLink(config.JWT_SECRET, { t: task.id, u: task.user_id, e: expires });
    return {
      url: `/v1/navigation-reports/files/${token}`,
      expires_at: new Date(expires * 1000).toISOString(),
    };
  });

  registerRoute(app, reportsRoutes.file, async (req, reply) => {
    const link = readFileLink(config.JWT_SECRET, req.params.link);
    if (!link) throw forbidden('Enlace de descarga no válido', 'bad_link');
    if (link.e * 1000 <= Date.now()) throw gone('El enlace de descarga venció; pida uno nuevo');
    const task = await getTask(pool, link.t);
    if (!task || task.user_id !== link.u) throw forbidden('Enlace de descarga no válido', 'bad_link');
    if (task.status !== 'succeeded' || !task.file_path)
      throw gone('El archivo del reporte ya no está disponible');
    const name = task.file_name ?? `reporte.${task.params.format}`;
    return reply
      .header('content-type', CONTENT_TYPES[task.params.format])
      .header('content-length', String(task.size_bytes ?? ''))
      .header('cache-control', 'private, no-store')
      .header('content-disposition', attachment(name))
      .send(createReadStream(task.file_path));
  });

  // ───────── subscriptions ─────────

  registerRoute(app, subscriptionsRoutes.list, async (req) => ({
    items: await listSubscriptions(pool, principalOf(req).orgId, req.query.email),
  }));

  registerRoute(app, subscriptionsRoutes.subscribe, async (req) => {
    const who = requesterOf(req);
    requireReportType(who.principal.license.modules, req.body.report_type);
    const pivot = resolvePivot(who, null);
    const scope = {
      pivot,
      sellers: resolveSellers(who, null, pivot),
      currency: resolveCurrency(who, null),
      roots: who.principal.license.classifications,
    };
    const item = await subscribe(pool, who.principal, req.body, scope);
    return { detail: 'Suscripción guardada', item };
  });

  registerRoute(app, subscriptionsRoutes.unsubscribe, async (req) => {
    await unsubscribe(pool, principalOf(req).orgId, req.body.report_type, req.body.email);
    return { detail: 'Suscripción cancelada' };
  });

  // "Enviar ahora" (issue 31 item 12): one send of an organisation's subscription, now; the caller's
  // license must grant its report type, the recipient's access is checked as for a scheduled send, and a
  // subscription is sent at most once every SEND_NOW_COOLDOWN_MS (429 with Retry-After) besides the
  // per-user limit of every signed-in route.
  registerRoute(app, subscriptionsRoutes.sendNow, async (req, reply) => {
    const who = requesterOf(req);
    const { rows } = await pool.query<{ report_type: ReportType }>(
      'select report_type from report_subscriptions where id = $1 and org_id = $2',
      [req.params.id, who.principal.orgId],
    );
    if (rows[0]) requireReportType(who.principal.license.modules, rows[0].report_type);
    try {
      const item = await sendSubscriptionNow(pool, config, who.principal.orgId, req.params.id);
      return { detail: 'Envío en preparación: llegará por correo cuando el reporte esté listo', item };
    } catch (err) {
      if (err instanceof AppError && err.statusCode === 429)
        reply.header('retry-after', Math.ceil(SEND_NOW_COOLDOWN_MS / 1000));
      throw err;
    }
  });

  registerRoute(app, subscriptionsRoutes.unsubscribeLink, async (req, reply) => {
    const removed = await unsubscribeByLink(pool, config.JWT_SECRET, req.params.link);
    if (removed === null) throw forbidden('Enlace de baja no válido', 'bad_link');
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        page(
          'Suscripción cancelada',
          removed
            ? 'Esta dirección ya no recibirá este reporte por correo.'
            : 'Esta suscripción ya no estaba activa: no recibirá más este reporte.',
        ),
      );
  });
}

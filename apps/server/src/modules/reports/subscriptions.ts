import {
  addDays,
  formatDate,
  REPORT_TYPE_LABELS,
  type ReportFormat,
  type ReportType,
  type SubscriptionDelivery,
  type SubscriptionItem,
  type subscriptionBody,
} from '@vigia/domain';
import type pg from 'pg';
import type { z } from 'zod';
import type { Config } from '../../config.js';
import { type Queryable, withTransaction } from '../../db/database.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import { jobRowSql } from '../../platform/jobs/index.js';
import { enqueueEmail } from '../../platform/mail/index.js';
import { type ReportScope, reportAccessNow } from './access.js';
import type { ReportParams } from './builders.js';
import { localIsoDay, nextRunAt } from './schedule.js';
import { signFileLink, signUnsubscribe, unsubscribeIdOf, unsubscribeValid } from './signing.js';
import {
  announceTask,
  createTask,
  onReportTaskFinished,
  REPORT_FILE_TTL_DAYS,
  type TaskRow,
} from './tasks.js';

// E-mail subscriptions (report_subscriptions, report_deliveries; migration 130). An address of the
// organisation (a user of it) receives a report type daily or weekly at a local hour of that user's
// timezone. The scheduler (dispatchDueSubscriptions, every minute in each process; FOR UPDATE SKIP
// LOCKED) creates the task; when the build finishes (onReportTaskFinished) the e-mail is enqueued on the
// 'email' queue with the file attached — or a signed link when larger than ATTACH_MAX_BYTES — and the
// one-click unsubscribe link. Every send is a report_deliveries row; its attempts, back-off and last error
// are its e-mail job's (jobs), shown on the screen.

export const ATTACH_MAX_BYTES = 5 * 1024 * 1024;
/** Days a link in an e-mail keeps working (the file lives as long: REPORT_FILE_TTL_DAYS). */
export const EMAIL_LINK_DAYS = REPORT_FILE_TTL_DAYS;

interface SubscriptionRow {
  id: number;
  user_id: number;
  org_id: number;
  report_type: ReportType;
  email: string;
  frequency: 'daily' | 'weekly';
  hour: number;
  weekday: number;
  format: ReportFormat;
  timezone: string;
  params: Omit<ReportParams, 'from' | 'to' | 'format' | 'report_type'>;
  next_run_at: Date;
  created_at: Date;
  suspended_reason: string | null;
}

interface DeliveryJoin {
  d_created_at: Date | null;
  d_error: string | null;
  d_as_link: boolean | null;
  d_task_status: string | null;
  j_status: string | null;
  j_attempts: number | null;
  j_max_attempts: number | null;
  j_last_error: string | null;
  j_run_at: Date | null;
  j_finished_at: Date | null;
}

/** A delivery's state: building (task running) → sending → retrying (attempt failed, waiting) → sent | failed. */
export function deliveryOut(r: DeliveryJoin): SubscriptionDelivery | null {
  if (!r.d_created_at) return null;
  const base = {
    attempts: r.j_attempts ?? 0,
    error: r.d_error ?? r.j_last_error,
    created_at: r.d_created_at.toISOString(),
    sent_at: null as string | null,
    next_attempt_at: null as string | null,
    as_link: r.d_as_link ?? false,
  };
  if (r.d_error || r.d_task_status === 'failed') return { ...base, status: 'failed' };
  if (r.j_status === null) return { ...base, status: 'building' };
  if (r.j_status === 'succeeded')
    return { ...base, status: 'sent', sent_at: r.j_finished_at?.toISOString() ?? null };
  if (r.j_status === 'failed') return { ...base, status: 'failed' };
  if (r.j_status === 'queued' && (r.j_attempts ?? 0) > 0)
    return { ...base, status: 'retrying', next_attempt_at: r.j_run_at?.toISOString() ?? null };
  return { ...base, status: 'sending' };
}

const SUB_SELECT = `
  select s.*, d.created_at as d_created_at, d.error as d_error, d.as_link as d_as_link,
         t.status as d_task_status, j.status as j_status, j.attempts as j_attempts,
         j.max_attempts as j_max_attempts, j.last_error as j_last_error, j.run_at as j_run_at,
         j.finished_at as j_finished_at
    from report_subscriptions s
    left join lateral (select * from report_deliveries d where d.subscription_id = s.id
                        order by d.created_at desc, d.id desc limit 1) d on true
    left join export_tasks t on t.id = d.task_id
    left join lateral (${jobRowSql('d.email_job_id')}) j on true`;

function itemOut(r: SubscriptionRow & DeliveryJoin): SubscriptionItem {
  return {
    id: r.id,
    report_type: r.report_type,
    email: r.email,
    frequency: r.frequency,
    hour: r.hour,
    weekday: r.weekday,
    format: r.format,
    timezone: r.timezone,
    next_run_at: r.next_run_at.toISOString(),
    created_at: r.created_at.toISOString(),
    last_delivery: deliveryOut(r),
    suspended: r.suspended_reason,
  };
}

/** The organisation's subscriptions (of one address when given), with their last delivery. */
export async function listSubscriptions(
  db: Queryable,
  orgId: number,
  email?: string,
): Promise<SubscriptionItem[]> {
  const { rows } = await db.query<SubscriptionRow & DeliveryJoin>(
    `${SUB_SELECT} where s.org_id = $1 and ($2::text is null or lower(s.email) = lower($2))
      order by lower(s.email), s.report_type`,
    [orgId, email ?? null],
  );
  return rows.map(itemOut);
}

/** The user of the organisation with this address (subscriptions go only to the organisation's people). */
async function orgRecipient(
  db: Queryable,
  orgId: number,
  email: string,
): Promise<{ timezone: string } | null> {
  const { rows } = await db.query<{ timezone: string }>(
    'select timezone from users where org_id = $1 and lower(email) = lower($2) and is_active',
    [orgId, email],
  );
  return rows[0] ?? null;
}

export async function subscribe(
  db: Queryable,
  who: { userId: number; orgId: number },
  body: z.output<typeof subscriptionBody>,
  scope: SubscriptionRow['params'],
  now = new Date(),
): Promise<SubscriptionItem> {
  const recipient = await orgRecipient(db, who.orgId, body.email);
  if (!recipient)
    throw forbidden('El correo no pertenece a un usuario de su organización', 'email_not_in_organisation');
  const next = nextRunAt({ ...body, timezone: recipient.timezone }, now);
  const { rows } = await db.query<{ id: number }>(
    `insert into report_subscriptions
       (user_id, org_id, report_type, email, frequency, hour, weekday, format, timezone, params, next_run_at)
     values ($1, $2, $3, lower($4), $5, $6, $7, $8, $9, $10::jsonb, $11)
     on conflict (org_id, report_type, lower(email)) do update
       set user_id = excluded.user_id, frequency = excluded.frequency, hour = excluded.hour,
           weekday = excluded.weekday, format = excluded.format, timezone = excluded.timezone,
           params = excluded.params, next_run_at = excluded.next_run_at,
           suspended_at = null, suspended_reason = null
     returning id`,
    [
      who.userId,
      who.orgId,
      body.report_type,
      body.email,
      body.frequency,
      body.hour,
      body.weekday,
      body.format,
      recipient.timezone,
      JSON.stringify(scope),
      next,
    ],
  );
  const { rows: out } = await db.query<SubscriptionRow & DeliveryJoin>(`${SUB_SELECT} where s.id = $1`, [
    rows[0].id,
  ]);
  return itemOut(out[0]);
}

/** Removes an address's subscription to a report type (only within the caller's organisation). */
export async function unsubscribe(
  db: Queryable,
  orgId: number,
  reportType: ReportType,
  email: string,
): Promise<void> {
  const { rowCount } = await db.query(
    'delete from report_subscriptions where org_id = $1 and report_type = $2 and lower(email) = lower($3)',
    [orgId, reportType, email],
  );
  if (!rowCount) throw notFound('No existe esa suscripción');
}

/**
 * The one-click link's removal: the subscription the token names, when its MAC matches that row's id,
 * address and type. true = removed, false = already gone, null = not a valid link.
 */
export async function unsubscribeByLink(
  db: Queryable,
  secret: string,
  token: string,
): Promise<boolean | null> {
  const id = unsubscribeIdOf(token);
  if (id === null) return null;
  const { rows } = await db.query<{ id: number; email: string; report_type: string }>(
    'select id, email, report_type from report_subscriptions where id = $1',
    [id],
  );
  if (!rows[0]) return /^\d+\.[A-Za-z0-9_-]{24}$/.test(token) ? false : null;
  if (!unsubscribeValid(secret, token, rows[0])) return null;
  await db.query('delete from report_subscriptions where id = $1', [id]);
  return true;
}

/**
 * The date range a send covers, ending on the day it is sent in `zone` (the organisation's market zone):
 * daily = that day, weekly = 7 days.
 */
export function sendRange(
  frequency: 'daily' | 'weekly',
  at: Date,
  zone: string,
): { from: string; to: string } {
  const to = localIsoDay(at, zone);
  return { from: frequency === 'weekly' ? addDays(to, -6) : to, to };
}

/**
 * Whether a subscription may be sent now: its recipient (the organisation's user of the address) and its
 * creator active, and the license granting its report; the scope narrowed to today's license. The reason
 * is the line shown in the organisation's list.
 */
async function subscriptionAccess(
  db: Queryable,
  s: Pick<SubscriptionRow, 'org_id' | 'email' | 'user_id' | 'report_type' | 'params'>,
): Promise<{ ok: true; scope: ReportScope } | { ok: false; reason: string }> {
  if (!(await orgRecipient(db, s.org_id, s.email)))
    return { ok: false, reason: `Suspendida: el usuario ${s.email} está desactivado` };
  const access = await reportAccessNow(db, s.user_id, s.report_type, s.params);
  if (!access.ok)
    return {
      ok: false,
      reason: access.inactive
        ? 'Suspendida: el usuario que la creó está desactivado'
        : `Suspendida: ${access.reason}`,
    };
  return { ok: true, scope: access.scope };
}

/**
 * Starts the sends that are due: for each subscription with next_run_at ≤ now, a report task and a
 * delivery row, and its next run. Safe with several processes (SKIP LOCKED). Returns the tasks created.
 */
export async function dispatchDueSubscriptions(
  pool: pg.Pool,
  config: Config,
  now = new Date(),
): Promise<string[]> {
  const created = await withTransaction(pool, async (client) => {
    const { rows } = await client.query<SubscriptionRow>(
      `select * from report_subscriptions where next_run_at <= $1 order by next_run_at
        for update skip locked limit 50`,
      [now],
    );
    const tasks: TaskRow[] = [];
    for (const s of rows) {
      // who may receive it now, and what (issue 26): suspended, or the scope narrowed to the license
      const access = await subscriptionAccess(client, s);
      if (!access.ok) {
        await client.query(
          `update report_subscriptions set next_run_at = $2, suspended_reason = $3,
                  suspended_at = coalesce(suspended_at, now())
            where id = $1`,
          [s.id, nextRunAt(s, now), access.reason],
        );
        continue;
      }
      // the days it covers are the organisation's market days (up to today there); the hour it goes out
      // at is the recipient's (nextRunAt)
      const range = sendRange(s.frequency, now, access.scope.zone ?? s.timezone);
      const task = await createTask(
        client,
        s.user_id,
        { ...access.scope, report_type: s.report_type, format: s.format, ...range },
        s.id,
      );
      await client.query('insert into report_deliveries (subscription_id, task_id) values ($1, $2)', [
        s.id,
        task.id,
      ]);
      await client.query(
        `update report_subscriptions set next_run_at = $2, suspended_at = null, suspended_reason = null
          where id = $1`,
        [s.id, nextRunAt(s, now)],
      );
      tasks.push(task);
    }
    return tasks;
  });
  for (const t of created) announceTask(config, t);
  return created.map((t) => t.id);
}

/** "Enviar ahora" at most once per subscription in this long (any send of it counts: issue 31 item 12). */
export const SEND_NOW_COOLDOWN_MS = 5 * 60_000;

/**
 * "Enviar ahora": one delivery of the organisation's subscription `id` queued now — its report built for
 * the period a scheduled send would cover today, then e-mailed like any other send (report_deliveries
 * row, its task, its e-mail job). The schedule (next_run_at) is left as it is. Refused: another
 * organisation's or a missing subscription (404), a send of it less than SEND_NOW_COOLDOWN_MS ago (429),
 * a recipient or creator deactivated or a report the license no longer grants (403, the list's reason).
 */
export async function sendSubscriptionNow(
  pool: pg.Pool,
  config: Config,
  orgId: number,
  id: number,
  now = new Date(),
): Promise<SubscriptionItem> {
  const task = await withTransaction(pool, async (client) => {
    const { rows } = await client.query<SubscriptionRow>(
      'select * from report_subscriptions where id = $1 and org_id = $2 for update',
      [id, orgId],
    );
    const s = rows[0];
    if (!s) throw notFound('No existe esa suscripción');
    const { rows: recent } = await client.query<{ created_at: Date }>(
      `select created_at from report_deliveries where subscription_id = $1 and created_at > $2
        order by created_at desc limit 1`,
      [s.id, new Date(now.getTime() - SEND_NOW_COOLDOWN_MS)],
    );
    if (recent.length) {
      const wait = Math.ceil(
        (recent[0].created_at.getTime() + SEND_NOW_COOLDOWN_MS - now.getTime()) / 60_000,
      );
      throw new AppError(
        429,
        'rate_limited',
        `Esta suscripción se envió hace menos de ${SEND_NOW_COOLDOWN_MS / 60_000} minutos: podrás enviarla de nuevo en ${Math.max(1, wait)} min.`,
      );
    }
    const access = await subscriptionAccess(client, s);
    if (!access.ok) throw forbidden(access.reason, 'subscription_suspended');
    const t = await createTask(
      client,
      s.user_id,
      {
        ...access.scope,
        report_type: s.report_type,
        format: s.format,
        ...sendRange(s.frequency, now, s.timezone),
      },
      s.id,
    );
    await client.query('insert into report_deliveries (subscription_id, task_id) values ($1, $2)', [
      s.id,
      t.id,
    ]);
    return t;
  });
  announceTask(config, task);
  const { rows } = await pool.query<SubscriptionRow & DeliveryJoin>(`${SUB_SELECT} where s.id = $1`, [id]);
  return itemOut(rows[0]);
}

export const fileLinkUrl = (config: Config, token: string) =>
  `${config.PUBLIC_URL.replace(/\/$/, '')}/v1/navigation-reports/files/${token}`;
export const unsubscribeUrl = (config: Config, token: string) =>
  `${config.PUBLIC_URL.replace(/\/$/, '')}/v1/subscriptions/unsubscribe/${token}`;

/** After a subscription's build: the e-mail (attachment or link) on the 'email' queue, or the failure. */
async function deliverSubscriptionReport(
  task: TaskRow,
  ctx: { pool: pg.Pool; config: Config },
): Promise<void> {
  if (task.subscription_id === null) return;
  const { pool, config } = ctx;
  const { rows } = await pool.query<SubscriptionRow & { delivery_id: number }>(
    `select s.*, d.id as delivery_id from report_deliveries d join report_subscriptions s on s.id = d.subscription_id
      where d.task_id = $1`,
    [task.id],
  );
  const s = rows[0];
  if (!s) return; // unsubscribed meanwhile
  // the recipient may have been deactivated, or the license changed, while the report was built
  const access = task.status === 'succeeded' ? await subscriptionAccess(pool, s) : null;
  if (access && !access.ok) {
    await pool.query('update report_deliveries set error = $2 where id = $1', [
      s.delivery_id,
      `No enviado: ${access.reason.replace(/^Suspendida: /, '')}`,
    ]);
    await pool.query(
      `update report_subscriptions set suspended_reason = $2, suspended_at = coalesce(suspended_at, now())
        where id = $1`,
      [s.id, access.reason],
    );
    return;
  }
  if (task.status !== 'succeeded' || !task.file_path) {
    await pool.query('update report_deliveries set error = $2 where id = $1', [
      s.delivery_id,
      task.error ?? 'El reporte no se generó',
    ]);
    return;
  }
  const p = task.params;
  const label = REPORT_TYPE_LABELS[p.report_type];
  const range = p.from === p.to ? formatDate(p.to) : `${formatDate(p.from)} al ${formatDate(p.to)}`;
  const unsubscribe = unsubscribeUrl(config, signUnsubscribe(config.JWT_SECRET, s));
  const asLink = (task.size_bytes ?? 0) > ATTACH_MAX_BYTES;
  const link = asLink
    ? fileLinkUrl(
        config,
        signFileLink(config.JWT_SECRET, {
          t: task.id,
          u: task.user_id,
          e: Math.floor(Date.now() / 1000) + EMAIL_LINK_DAYS * 86_400,
        }),
      )
    : null;
  const lines = [
    'Hola:',
    '',
    `Te enviamos el reporte ${label} de Vigía (${range}).`,
    asLink
      ? `El archivo es grande para adjuntarlo; descárgalo aquí (el enlace vence en ${EMAIL_LINK_DAYS} días):\n${link}`
      : 'Lo encontrarás adjunto a este correo.',
    '',
    `Recibes este correo por una suscripción ${s.frequency === 'daily' ? 'diaria' : 'semanal'}.`,
    `Para dejar de recibirlo: ${unsubscribe}`,
  ];
  const jobId = await enqueueEmail(pool, {
    to: s.email,
    subject: `Vigía — reporte ${label} (${range})`,
    text: lines.join('\n'),
    html: lines
      .map((l) => l.replace(/(https?:\/\/\S+)/g, '<a href="$1">$1</a>').replace(/\n/g, '<br>'))
      .map((l) => (l ? `<p>${l}</p>` : ''))
      .join(''),
    ...(asLink
      ? {}
      : { attachments: [{ filename: task.file_name ?? `reporte.${p.format}`, path: task.file_path }] }),
  });
  await pool.query('update report_deliveries set email_job_id = $2, as_link = $3 where id = $1', [
    s.delivery_id,
    jobId,
    asLink,
  ]);
}

export function registerSubscriptionDelivery(): void {
  onReportTaskFinished(deliverSubscriptionReport);
}

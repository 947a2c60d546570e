import { z } from 'zod';
import { emailSchema, idSchema, shortText } from './common.js';
import { DEFAULT_REPORT_TYPE, type ModuleCode, REPORT_FORMATS } from './constants.js';
import { calendarDay } from './dates.js';

// Contract of the reports and subscriptions endpoints (seed 001 §3 "Reports state", "Report request",
// "Subscription", §7 "Reports and subscriptions"). Definitions of every column: docs/metrics.md "Reports".

/** Report types: match (default), prices (price history), promotions, assortment. */
export const REPORT_TYPES = ['match', 'prices', 'promotions', 'assortment'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
export const REPORT_TYPE_LABELS: Record<ReportType, string> = {
  match: 'Match',
  prices: 'Precios',
  promotions: 'Promociones',
  assortment: 'Surtido',
};
/**
 * The modules whose data each report type carries: the license must grant one of them (besides
 * 'reports') to request, subscribe to or receive it (issue 26 finding 0). match = the DPM/navigation
 * comparison, prices = the listings' price history (the DPM and navigation screens), promotions and
 * assortment = their modules' read models.
 */
export const REPORT_TYPE_MODULES: Record<ReportType, readonly [ModuleCode, ...ModuleCode[]]> = {
  match: ['dpm', 'ecommerce_navigation'],
  prices: ['dpm', 'ecommerce_navigation'],
  promotions: ['promotions'],
  assortment: ['assortment'],
};
/** Whether a license's modules grant a report type's data. */
export const reportTypeLicensed = (type: ReportType, modules: readonly string[]) =>
  REPORT_TYPE_MODULES[type].some((m) => modules.includes(m));
/** The report types a license's modules grant, in the list's order. */
export const licensedReportTypes = (modules: readonly string[]): ReportType[] =>
  REPORT_TYPES.filter((t) => reportTypeLicensed(t, modules));
export const REPORT_FORMAT_LABELS = { xlsx: 'XLSX', csv: 'CSV' } as const;
/** Longest date range of one report (days, both ends included). */
export const REPORT_MAX_DAYS = 366;
export const reportTypeSchema = z.enum(REPORT_TYPES);
export const reportFormatSchema = z.enum(REPORT_FORMATS);

const rangeDays = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;

/**
 * POST /v1/navigation-reports/: the seed's currency, from_date, pivot_id, report_type, sellers, to_date,
 * plus the file format (the screen's fileFormat). pivot_id, sellers and currency default to the session's.
 */
export const reportRequestBody = z
  .object({
    report_type: reportTypeSchema.default(DEFAULT_REPORT_TYPE),
    format: reportFormatSchema.default('xlsx'),
    currency: z.string().trim().toUpperCase().length(3).optional(),
    from_date: calendarDay,
    to_date: calendarDay,
    pivot_id: idSchema.optional(),
    sellers: z.array(idSchema).max(200).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.from_date > b.to_date)
      ctx.addIssue({ code: 'custom', path: ['to_date'], message: 'la fecha final es anterior a la inicial' });
    else if (rangeDays(b.from_date, b.to_date) > REPORT_MAX_DAYS)
      ctx.addIssue({ code: 'custom', path: ['to_date'], message: `el rango supera ${REPORT_MAX_DAYS} días` });
  });
export type ReportRequestBody = z.infer<typeof reportRequestBody>;
export type ReportRequestInput = z.input<typeof reportRequestBody>;

export const REPORT_TASK_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export const reportTask = z.object({
  id: z.string(),
  report_type: reportTypeSchema,
  format: reportFormatSchema,
  from_date: z.string(),
  to_date: z.string(),
  currency: z.string(),
  pivot_id: z.number(),
  sellers: z.array(z.number()),
  status: z.enum(REPORT_TASK_STATUSES),
  /** 0 … 1 */
  progress: z.number(),
  rows_done: z.number(),
  /** null until counted */
  rows_total: z.number().nullable(),
  file_name: z.string().nullable(),
  size_bytes: z.number().nullable(),
  /** Spanish reason of a failed build */
  error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  /** The file's reference for /sign-report/ (null until built, and once the file expired). */
  gs_url: z.string().nullable(),
  /** When the built file is deleted. */
  expires_at: z.string().nullable(),
  /** Built for an e-mail subscription. */
  scheduled: z.boolean(),
});
export type ReportTask = z.infer<typeof reportTask>;
export const reportCreatedResponse = z.object({ id: z.string(), task: reportTask });
export const reportTasksResponse = z.object({ items: z.array(reportTask) });
export type ReportTasksResponse = z.infer<typeof reportTasksResponse>;

/** POST /v1/navigation-reports/sign-report/ {gs_url}: a signed, expiring link to a finished file. */
export const signReportBody = z.object({ gs_url: shortText(300).min(1) });
export const signReportResponse = z.object({ url: z.string(), expires_at: z.string() });
/** A signed link (its MAC included): a capability for one file or one unsubscription, not a session. */
export const signedLinkParams = z.object({ link: z.string().min(1).max(800) });

// ───────────────────────────── subscriptions ─────────────────────────────

export const SUBSCRIPTION_FREQUENCIES = ['daily', 'weekly'] as const;
export type SubscriptionFrequency = (typeof SUBSCRIPTION_FREQUENCIES)[number];
export const SUBSCRIPTION_FREQUENCY_LABELS: Record<SubscriptionFrequency, string> = {
  daily: 'Diaria',
  weekly: 'Semanal',
};
/** ISO weekday 1 = lunes … 7 = domingo. */
export const WEEKDAY_LABELS = [
  'lunes',
  'martes',
  'miércoles',
  'jueves',
  'viernes',
  'sábado',
  'domingo',
] as const;
export const DEFAULT_SUBSCRIPTION_HOUR = 8;

export const subscriptionsQuery = z.object({ email: emailSchema.optional() });
/** POST /v1/subscriptions/: the seed's report_type and email, plus when and how it is sent. */
export const subscriptionBody = z.object({
  report_type: reportTypeSchema,
  email: emailSchema,
  frequency: z.enum(SUBSCRIPTION_FREQUENCIES).default('daily'),
  /** local hour (0–23) in the recipient's timezone */
  hour: z.coerce.number().int().min(0).max(23).default(DEFAULT_SUBSCRIPTION_HOUR),
  /** weekly only: ISO weekday, 1 = lunes */
  weekday: z.coerce.number().int().min(1).max(7).default(1),
  format: reportFormatSchema.default('xlsx'),
});
export type SubscriptionBody = z.input<typeof subscriptionBody>;
export const unsubscribeBody = z.object({ report_type: reportTypeSchema, email: emailSchema });
export type UnsubscribeBody = z.input<typeof unsubscribeBody>;

export const DELIVERY_STATUSES = ['building', 'sending', 'retrying', 'sent', 'failed'] as const;
export const DELIVERY_STATUS_LABELS: Record<(typeof DELIVERY_STATUSES)[number], string> = {
  building: 'Generando',
  sending: 'Enviando',
  retrying: 'Reintentando',
  sent: 'Enviado',
  failed: 'Fallido',
};
export const subscriptionDelivery = z.object({
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number(),
  /** last failure (SMTP, build) */
  error: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  /** next attempt while retrying */
  next_attempt_at: z.string().nullable(),
  /** the file went as a signed link (too large to attach) */
  as_link: z.boolean(),
});
export type SubscriptionDelivery = z.infer<typeof subscriptionDelivery>;
export const subscriptionItem = z.object({
  id: z.number(),
  report_type: reportTypeSchema,
  email: z.string(),
  frequency: z.enum(SUBSCRIPTION_FREQUENCIES),
  hour: z.number(),
  weekday: z.number(),
  format: reportFormatSchema,
  timezone: z.string(),
  next_run_at: z.string(),
  created_at: z.string(),
  last_delivery: subscriptionDelivery.nullable(),
  /**
   * Why the subscription is suspended (its recipient or creator deactivated, its report no longer in the
   * license), checked each time it is due; null while it is sent.
   */
  suspended: z.string().nullable(),
});
export type SubscriptionItem = z.infer<typeof subscriptionItem>;
export const subscriptionsResponse = z.object({ items: z.array(subscriptionItem) });
/** The subscription of "Enviar ahora" (POST /v1/subscriptions/send-now/:id). */
export const subscriptionIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const subscriptionSavedResponse = z.object({ detail: z.string(), item: subscriptionItem });

import { z } from 'zod';
import { idSchema } from './common.js';
import type { ModuleCode } from './constants.js';
import { formatNumber, formatPrice } from './format.js';

// Notifications (issue 17): explained change events, subscriptions by namespace, no noise.
// Rules and their thresholds: docs/metrics.md "Notifications". The server computes the events at ingest
// (apps/server/src/modules/notifications/rules.ts); this file holds what both sides share: namespaces,
// kinds, channels, the API schemas and the one-line Spanish explanations.

export const NOTIFICATION_NAMESPACES = ['prices', 'promotions', 'assortment', 'images', 'reports'] as const;
export type NotificationNamespace = (typeof NOTIFICATION_NAMESPACES)[number];

export const NAMESPACE_LABELS: Record<NotificationNamespace, string> = {
  prices: 'Precios',
  promotions: 'Promociones',
  assortment: 'Surtido',
  images: 'Imágenes',
  reports: 'Reportes',
};

/** The license modules that open a namespace (any of them). */
export const NAMESPACE_MODULES: Record<NotificationNamespace, readonly ModuleCode[]> = {
  prices: ['dpm', 'ecommerce_navigation'],
  promotions: ['promotions'],
  assortment: ['assortment'],
  images: ['image_verification'],
  reports: ['reports'],
};

/** What the minimum size of a namespace's subscription measures (the editor's label). */
export const NAMESPACE_SIZE_LABELS: Record<NotificationNamespace, string> = {
  prices: 'Cambio mínimo de precio (%)',
  promotions: 'Mínimo de productos en promoción',
  assortment: 'Mínimo de productos afectados',
  images: 'Mínimo de productos afectados',
  reports: 'Tamaño mínimo',
};

/**
 * Bounds of each namespace's minimum size (issue 31 item 7): a price change in % (0 = every change, up to
 * 100 %, one decimal); the others whole numbers of products.
 */
export const NAMESPACE_SIZE_BOUNDS: Record<
  NotificationNamespace,
  { min: number; max: number; decimals: number }
> = {
  prices: { min: 0, max: 100, decimals: 1 },
  promotions: { min: 0, max: 100_000, decimals: 0 },
  assortment: { min: 0, max: 100_000, decimals: 0 },
  images: { min: 0, max: 100_000, decimals: 0 },
  reports: { min: 0, max: 100_000, decimals: 0 },
};

/** The message of a minimum size outside its namespace's bounds (Spanish), or null. */
export function sizeBoundsError(ns: NotificationNamespace, v: number): string | null {
  const b = NAMESPACE_SIZE_BOUNDS[ns];
  if (v < b.min || v > b.max) return `min_size: debe estar entre ${b.min} y ${b.max}`;
  if (Math.round(v * 10 ** b.decimals) !== v * 10 ** b.decimals)
    return b.decimals ? `min_size: hasta ${b.decimals} decimal` : 'min_size: debe ser un número entero';
  return null;
}

export const NOTIFICATION_CHANNELS = ['app', 'email', 'email_digest'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
export const CHANNEL_LABELS: Record<NotificationChannel, string> = {
  app: 'Solo en la aplicación',
  email: 'En la aplicación y por correo al instante',
  email_digest: 'En la aplicación y resumen diario por correo',
};

/**
 * Defaults of a namespace a user never edited (docs/metrics.md "Notifications"): on, in the app, and a
 * minimum size chosen so that the demo market gives a handful of notifications per user per day.
 */
export const DEFAULT_SUBSCRIPTION: Record<
  NotificationNamespace,
  { enabled: boolean; channel: NotificationChannel; min_size: number; digest_hour: number }
> = {
  prices: { enabled: true, channel: 'app', min_size: 15, digest_hour: 8 },
  promotions: { enabled: true, channel: 'app', min_size: 20, digest_hour: 8 },
  assortment: { enabled: true, channel: 'app', min_size: 10, digest_hour: 8 },
  images: { enabled: true, channel: 'app', min_size: 0, digest_hour: 8 },
  reports: { enabled: true, channel: 'app', min_size: 0, digest_hour: 8 },
};

export const NOTIFICATION_PAGE_SIZE = 20;
export const NOTIFICATION_READ_STATES = ['all', 'unread', 'read'] as const;

// ───────────── API ─────────────

export const notificationListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(NOTIFICATION_PAGE_SIZE),
  namespace: z.enum(NOTIFICATION_NAMESPACES).optional(),
  state: z.enum(NOTIFICATION_READ_STATES).default('all'),
});
export type NotificationListQuery = z.input<typeof notificationListQuery>;

export const notificationItem = z.object({
  id: z.number(),
  namespace: z.enum(NOTIFICATION_NAMESPACES),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  /** When the change happened (ISO instant); the screen shows it in the user's timezone. */
  occurred_at: z.string(),
  created_at: z.string(),
  read: z.boolean(),
});
export type NotificationItem = z.infer<typeof notificationItem>;

export const notificationListResponse = z.object({
  count: z.number(),
  unread: z.number(),
  page: z.number(),
  page_size: z.number(),
  /** The user's timezone (IANA), for the times shown. */
  timezone: z.string(),
  results: z.array(notificationItem),
});
export type NotificationListResponse = z.infer<typeof notificationListResponse>;

export const unreadCountResponse = z.object({ unread: z.number() });
export const notificationIdBody = z.object({ id: idSchema });
export const markAllReadBody = z.object({ namespace: z.enum(NOTIFICATION_NAMESPACES).optional() });

const idList = z.array(idSchema).max(500);
export const notificationSubscription = z.object({
  namespace: z.enum(NOTIFICATION_NAMESPACES),
  enabled: z.boolean(),
  channel: z.enum(NOTIFICATION_CHANNELS),
  /** Local hour (0–23, user's timezone) of the daily digest. */
  digest_hour: z.number().int().min(0).max(23),
  /** Minimum size of a change (see NAMESPACE_SIZE_LABELS); 0 = every change. */
  min_size: z.number().min(0).max(100_000),
  /** Only these sellers / brands / classifications (subtrees); empty = all within the license. */
  sellers: idList,
  brands: idList,
  classifications: idList,
});
export type NotificationSubscription = z.infer<typeof notificationSubscription>;
export const notificationSubscriptionsResponse = z.object({
  timezone: z.string(),
  subscriptions: z.array(notificationSubscription.extend({ licensed: z.boolean() })),
});
export type NotificationSubscriptionsResponse = z.infer<typeof notificationSubscriptionsResponse>;

export const unsubscribeQuery = z.object({
  u: idSchema,
  ns: z.enum(NOTIFICATION_NAMESPACES),
  sig: z
    .string()
    .length(64)
    .regex(/^[0-9a-f]{64}$/, 'firma inválida'),
});

// ───────────── explanations (one line, Spanish; docs/metrics.md "Notifications") ─────────────

/** 1 → '1.º', 3 → '3.º' (ordinal of a ranking position). */
export function ordinal(n: number): string {
  return `${n}.º`;
}

/** A percentage without decimals when ≥ 10, one decimal below: 12 → '12 %', 4.25 → '4,3 %'. */
export function sizePercent(pct: number): string {
  const a = Math.abs(pct);
  return `${formatNumber(a, a >= 10 ? 0 : 1)} %`;
}

const plural = (n: number, one: string, many: string) => `${formatNumber(n)} ${n === 1 ? one : many}`;

export interface PriceFacts {
  seller: string;
  product: string;
  currency: string;
  before: number;
  after: number;
  /** Positions in the market (null: none — no price, or nobody else with one). */
  rankBefore: number | null;
  rankAfter: number | null;
  /** The listing was out of stock before this price (it did not compete: no position before). */
  wasOut?: boolean;
  /** Repricing: days the new normal price has been held. */
  days?: number;
}

export interface GroupFacts {
  seller: string;
  count: number;
  /**
   * promotions: average discount (%) over the listings that have one (discountPercent: a promotion
   * priced at 0 or not below the normal price has none); null when none has; assortment: unused.
   */
  avgDiscount?: number | null;
  /** promotions start: of them, listings where the seller is now the cheapest. */
  cheapest?: number;
  /** one product's name when count = 1. */
  product?: string;
}

export interface Explained {
  title: string;
  body: string;
}

function move(f: PriceFacts): { verb: string; pct: number } {
  const pct = ((f.after - f.before) / f.before) * 100;
  return { verb: pct < 0 ? 'bajó' : 'subió', pct };
}

/** The one-line explanation of an event kind from its facts. */
export function explainPriceEvent(kind: string, f: PriceFacts): Explained {
  const { verb, pct } = move(f);
  // the amounts name their currency (the user's; issue 25): '(de $1.100 a $900 CLP)'
  const prices = `(de ${formatPrice(f.before, f.currency)} a ${formatPrice(f.after, f.currency)} ${f.currency.toUpperCase()})`;
  if (kind === 'cheapest_gained')
    return {
      title: `${f.seller} es ahora el más barato en ${f.product}`,
      // a rise can make a listing the cheapest only when it comes back from out of stock (the positions
      // are compared on the same competitor prices, issue 31 item 5): the text says so
      body: f.wasOut
        ? `${f.seller} volvió a tener stock de ${f.product} y ${verb} ${sizePercent(pct)} su precio ${prices}: ahora es el más barato del mercado (antes sin stock, no competía).`
        : `${f.seller} ${verb} ${sizePercent(pct)} el precio de ${f.product} ${prices} y ahora es el más barato del mercado${f.rankBefore === null ? '' : ` (antes ${ordinal(f.rankBefore)})`}.`,
    };
  if (kind === 'cheapest_lost')
    return {
      title: `${f.seller} dejó de ser el más barato en ${f.product}`,
      body: `${f.seller} ${verb} ${sizePercent(pct)} el precio de ${f.product} ${prices} y dejó de ser el más barato del mercado${f.rankAfter === null ? '' : ` (ahora ${ordinal(f.rankAfter)})`}.`,
    };
  // repricing: a new normal price held for days
  return {
    title: `${f.seller} ${pct < 0 ? 'rebajó' : 'subió'} su precio normal de ${f.product}`,
    body: `${f.seller} ${verb} ${sizePercent(pct)} el precio normal de ${f.product} ${prices} y lo mantiene hace ${plural(f.days ?? 0, 'día', 'días')}: es un cambio permanente, no una oferta${f.rankAfter === null ? '' : ` (queda ${ordinal(f.rankAfter)} del mercado)`}.`,
  };
}

export function explainGroupEvent(kind: string, f: GroupFacts): Explained {
  const what = f.count === 1 && f.product ? f.product : plural(f.count, 'producto tuyo', 'productos tuyos');
  switch (kind) {
    case 'promotion_start': {
      const cheap = f.cheapest ? `; queda como el más barato en ${formatNumber(f.cheapest)}` : '';
      return {
        title: `${f.seller} inició promociones en ${plural(f.count, 'producto', 'productos')}`,
        body:
          f.avgDiscount === null || f.avgDiscount === undefined
            ? `${f.seller} puso en promoción ${what} sin descuento sobre el precio normal${cheap}.`
            : `${f.seller} puso en promoción ${what} con un descuento promedio de ${sizePercent(f.avgDiscount)}${cheap}.`,
      };
    }
    case 'promotion_end':
      return {
        title: `${f.seller} terminó promociones en ${plural(f.count, 'producto', 'productos')}`,
        body:
          f.avgDiscount === null || f.avgDiscount === undefined
            ? `${f.seller} volvió al precio normal en ${what}.`
            : `${f.seller} volvió al precio normal en ${what} (descuento promedio que terminó: ${sizePercent(f.avgDiscount)}).`,
      };
    case 'stock_out':
      return {
        title: `${f.seller} se quedó sin stock en ${plural(f.count, 'producto', 'productos')}`,
        body: `${f.seller} se quedó sin stock en ${what}: es una oportunidad de venta mientras no repone.`,
      };
    case 'stock_back':
      return {
        title: `${f.seller} repuso stock en ${plural(f.count, 'producto', 'productos')}`,
        body: `${f.seller} volvió a tener stock en ${what}: vuelve a competir en esos productos.`,
      };
    default:
      return {
        title: `${f.seller} publicó ${plural(f.count, 'producto nuevo', 'productos nuevos')} que también vendes`,
        body: `${f.seller} empezó a vender ${what}: un competidor más en ${f.count === 1 ? 'ese producto' : 'esos productos'}.`,
      };
  }
}

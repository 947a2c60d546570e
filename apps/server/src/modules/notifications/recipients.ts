import {
  DEFAULT_SUBSCRIPTION,
  type ModuleCode,
  NAMESPACE_MODULES,
  NOTIFICATION_NAMESPACES,
  type NotificationChannel,
  type NotificationNamespace,
  type NotificationSubscription,
} from '@vigia/domain';
import type { Queryable } from '../../db/database.js';
import { userCurrency } from '../../market/index.js';

// Who may be told what: every active user with a current license, and their subscriptions (a namespace
// never edited has DEFAULT_SUBSCRIPTION). Loaded once per dispatch batch and per notifyUsers call.

export interface Recipient {
  id: number;
  orgId: number;
  email: string;
  timezone: string;
  /** The organisation's market zone (organisations.market_zone): what a day of its market is. */
  marketZone: string;
  /** The currency the user reads amounts in (market core userCurrency). */
  currency: string;
  /** The pivot whose matched products the user follows: the selected one, else every licensed pivot. */
  pivots: Set<number>;
  sellers: Set<number>;
  licensedPivots: Set<number>;
  modules: Set<ModuleCode>;
  /** Granted classification roots (empty: the whole tree). */
  classRoots: number[];
  subs: Map<NotificationNamespace, NotificationSubscription>;
}

export function namespaceLicensed(modules: Set<ModuleCode>, ns: NotificationNamespace): boolean {
  return NAMESPACE_MODULES[ns].some((m) => modules.has(m));
}

/**
 * SQL condition: the notification `n` may still reach its user `u` now (issue 26, finding 1) — the user
 * active, today's license granting the namespace's module and, for a seller's event, that seller. For the
 * deliveries that run after the notification was made (push, e-mail, digest). `$param` is
 * namespaceModulesParam().
 */
export function stillAllowedSql(param: string): string {
  return `(u.is_active and exists (
    select 1 from licenses l
     where l.org_id = u.org_id
       and (l.starts_on is null or l.starts_on <= current_date)
       and (l.ends_on is null or l.ends_on >= current_date)
       and exists (select 1 from license_modules m where m.license_id = l.id
                     and m.module_code in (select jsonb_array_elements_text(${param}::jsonb -> n.namespace)))
       and (n.seller_id is null
            or exists (select 1 from license_sellers ls where ls.license_id = l.id and ls.seller_id = n.seller_id)
            or exists (select 1 from license_pivots lp where lp.license_id = l.id and lp.seller_id = n.seller_id))))`;
}

/** The parameter of stillAllowedSql: each namespace's modules. */
export const namespaceModulesParam = () => JSON.stringify(NAMESPACE_MODULES);

export function defaultSubscription(ns: NotificationNamespace): NotificationSubscription {
  return { namespace: ns, ...DEFAULT_SUBSCRIPTION[ns], sellers: [], brands: [], classifications: [] };
}

interface SubRow {
  user_id: number;
  namespace: NotificationNamespace;
  enabled: boolean;
  channel: NotificationChannel;
  digest_hour: number;
  min_size: number;
  seller_ids: number[];
  brand_ids: number[];
  classification_ids: number[];
}

export const SUBSCRIPTION_COLUMNS =
  'user_id, namespace, enabled, channel, digest_hour, min_size, seller_ids, brand_ids, classification_ids';

export function subscriptionOf(r: SubRow): NotificationSubscription {
  return {
    namespace: r.namespace,
    enabled: r.enabled,
    channel: r.channel,
    digest_hour: r.digest_hour,
    min_size: r.min_size,
    sellers: r.seller_ids,
    brands: r.brand_ids,
    classifications: r.classification_ids,
  };
}

/** Every namespace's subscription of the users given (all active users when null). */
export async function loadRecipients(
  db: Queryable,
  userIds: number[] | null,
  orgId?: number,
): Promise<Recipient[]> {
  const { rows } = await db.query<{
    id: number;
    org_id: number;
    email: string;
    timezone: string;
    market_zone: string;
    currency: string | null;
    currencies: string[];
    pivot_id: number | null;
    sellers: number[];
    pivots: number[];
    modules: ModuleCode[];
    classifications: number[];
  }>(
    `select u.id, u.org_id, u.email, u.timezone, o.market_zone, u.currency, u.pivot_id,
            coalesce((select array_agg(currency order by currency) from license_currencies where license_id = l.id), '{}')
              as currencies,
            coalesce((select array_agg(seller_id) from license_sellers where license_id = l.id), '{}') as sellers,
            coalesce((select array_agg(seller_id) from license_pivots where license_id = l.id), '{}') as pivots,
            coalesce((select array_agg(module_code) from license_modules where license_id = l.id), '{}') as modules,
            coalesce((select array_agg(classification_id) from license_classifications where license_id = l.id), '{}')
              as classifications
       from users u
       join organisations o on o.id = u.org_id
       join licenses l on l.org_id = u.org_id
            and (l.starts_on is null or l.starts_on <= current_date)
            and (l.ends_on is null or l.ends_on >= current_date)
      where u.is_active and ($1::int[] is null or u.id = any($1)) and ($2::int is null or u.org_id = $2)
      order by u.id`,
    [userIds, orgId ?? null],
  );
  const { rows: subs } = await db.query<SubRow>(
    `select ${SUBSCRIPTION_COLUMNS} from notification_subscriptions where user_id = any($1::int[])`,
    [rows.map((r) => r.id)],
  );
  return rows.map((u) => {
    const licensedPivots = new Set(u.pivots);
    const map = new Map<NotificationNamespace, NotificationSubscription>();
    for (const ns of NOTIFICATION_NAMESPACES) map.set(ns, defaultSubscription(ns));
    for (const s of subs) if (s.user_id === u.id) map.set(s.namespace, subscriptionOf(s));
    return {
      id: u.id,
      orgId: u.org_id,
      email: u.email,
      timezone: u.timezone,
      marketZone: u.market_zone,
      currency: userCurrency(u.currency, u.currencies),
      pivots: u.pivot_id !== null && licensedPivots.has(u.pivot_id) ? new Set([u.pivot_id]) : licensedPivots,
      sellers: new Set(u.sellers),
      licensedPivots,
      modules: new Set(u.modules),
      classRoots: u.classifications,
      subs: map,
    };
  });
}

/** Classification id → its path (root … leaf), for subtree conditions. */
export async function loadClassPaths(db: Queryable): Promise<Map<number, number[]>> {
  const { rows } = await db.query<{ id: number; path: number[] }>('select id, path from classifications');
  return new Map(rows.map((r) => [r.id, r.path]));
}

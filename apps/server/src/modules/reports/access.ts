import { REPORT_TYPE_MODULES, type ReportType, reportTypeLicensed } from '@vigia/domain';
import type { Queryable } from '../../db/database.js';
import { loadUserAccess, type UserAccess } from '../../plugins/auth.js';
import type { ReportParams } from './builders.js';

// Access checked when a report is built or delivered, not only when it was asked for (issue 26,
// findings 0 and 1): a subscription's scope was frozen when it was made, a queued task waits, and
// meanwhile the user may be deactivated or the license may lose the module or a seller. At run time the
// scope is narrowed to what the license grants now (sellers, classification roots), or the work stops
// with a Spanish reason when nothing sensible is left (inactive user, module, pivot or currency gone).

export type ReportScope = Omit<ReportParams, 'from' | 'to' | 'format' | 'report_type'>;

export type AccessVerdict =
  | { ok: true; scope: ReportScope; user: UserAccess }
  | { ok: false; reason: string; inactive: boolean };

/** Why a license (today's) refuses a report type, or null when it grants it. */
export function reportTypeRefusal(modules: readonly string[], type: ReportType): string | null {
  if (!modules.includes('reports')) return 'la licencia ya no incluye el módulo reports';
  if (!reportTypeLicensed(type, modules))
    return `la licencia ya no incluye el módulo ${REPORT_TYPE_MODULES[type].join(' o ')}`;
  return null;
}

/**
 * What `userId` may receive now of a report of `type` over `scope`: the scope narrowed to the license
 * (sellers outside it dropped, today's classification roots), or why not at all.
 */
export async function reportAccessNow(
  db: Queryable,
  userId: number,
  type: ReportType,
  scope: ReportScope,
): Promise<AccessVerdict> {
  const user = await loadUserAccess(db, userId);
  if (!user) return { ok: false, reason: 'el usuario ya no existe', inactive: true };
  if (!user.isActive) return { ok: false, reason: 'el usuario está desactivado', inactive: true };
  const { license } = user;
  const refusal = reportTypeRefusal(license.modules, type);
  if (refusal) return { ok: false, reason: refusal, inactive: false };
  if (!license.pivots.includes(scope.pivot))
    return { ok: false, reason: 'la licencia ya no incluye el pivote del reporte', inactive: false };
  if (!license.currencies.includes(scope.currency))
    return { ok: false, reason: `la licencia ya no incluye la divisa ${scope.currency}`, inactive: false };
  const granted = new Set([...license.sellers, ...license.pivots]);
  return {
    ok: true,
    user,
    scope: {
      ...scope,
      sellers: scope.sellers.filter((s) => granted.has(s)),
      roots: license.classifications,
      // the zones in force now: the organisation's market zone (days), the user's (times shown)
      zone: user.marketZone,
      timezone: user.timezone,
    },
  };
}

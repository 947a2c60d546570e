import {
  addDays,
  DEFAULT_TIMEZONE,
  daysInclusive,
  defaultHistoryPeriod,
  isoDateInZone,
  MAX_HISTORY_DAYS,
  minusMonths,
} from '@vigia/domain';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useMarketZone } from '../../lib/admin.js';

// The history period picker's presets and checks. Calendar arithmetic and the seed's default (one month
// back to today, America/Santiago) come from the domain; this adds what the picker offers.

export interface Period {
  from: string;
  to: string;
}

export interface PeriodPreset {
  key: string;
  label: string;
  months?: number;
  days?: number;
}

export const PERIOD_PRESETS: readonly PeriodPreset[] = [
  { key: '7d', label: '7 días', days: 7 },
  { key: '1m', label: '1 mes', months: 1 },
  { key: '3m', label: '3 meses', months: 3 },
  { key: '6m', label: '6 meses', months: 6 },
  { key: '1y', label: '1 año', months: 12 },
];

/** Today in the organisation's market zone (useMarketZone; the deployment's default without it). */
export function todayIso(now: Date = new Date(), zone = DEFAULT_TIMEZONE): string {
  return isoDateInZone(now, zone);
}

/** The period a preset covers, ending today. */
export function presetPeriod(preset: PeriodPreset, today: string = todayIso()): Period {
  const from = preset.months ? minusMonths(today, preset.months) : addDays(today, -(preset.days ?? 0));
  return { from, to: today };
}

/** Seed default: one month back to today. */
export function defaultPeriod(now: Date = new Date(), zone = DEFAULT_TIMEZONE): Period {
  return defaultHistoryPeriod(now, zone);
}

/** The preset a period matches (ending today), if any. */
export function matchingPreset(period: Period, today: string = todayIso()): PeriodPreset | null {
  return (
    PERIOD_PRESETS.find((p) => {
      const q = presetPeriod(p, today);
      return q.from === period.from && q.to === period.to;
    }) ?? null
  );
}

/** Why a period cannot be asked for, or null when it can. */
export function periodError(period: Period, maxDays: number, today: string = todayIso()): string | null {
  const iso = /^\d{4}-\d{2}-\d{2}$/;
  if (!iso.test(period.from) || !iso.test(period.to)) return 'Ingresa ambas fechas.';
  if (period.from > period.to) return '"Desde" debe ser anterior a "Hasta".';
  if (period.to > today) return '"Hasta" no puede ser posterior a hoy.';
  if (daysInclusive(period.from, period.to) > maxDays) return `El período no puede superar ${maxDays} días.`;
  return null;
}

/**
 * The period kept in the URL (`from`, `to`), or the default when absent or unreadable: the period picked
 * survives Back and a reload. Pure, for tests.
 */
export function readUrlPeriod(
  params: URLSearchParams,
  maxDays: number,
  now: Date = new Date(),
  zone = DEFAULT_TIMEZONE,
): Period {
  const from = params.get('from');
  const to = params.get('to');
  if (from && to && periodError({ from, to }, maxDays, todayIso(now, zone)) === null) return { from, to };
  return defaultPeriod(now, zone);
}

/** The history period of a product page, in the URL (replacing the entry, so Back keeps it). */
export function useUrlPeriod(maxDays: number = MAX_HISTORY_DAYS): [Period, (next: Period) => void] {
  const [params, setParams] = useSearchParams();
  const zone = useMarketZone();
  const key = `${params.get('from')}|${params.get('to')}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for the values read
  const period = useMemo(() => readUrlPeriod(params, maxDays, new Date(), zone), [key, maxDays, zone]);
  const setPeriod = useCallback(
    (next: Period) =>
      setParams(
        (prev) => {
          const out = new URLSearchParams(prev);
          out.set('from', next.from);
          out.set('to', next.to);
          return out;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [period, setPeriod];
}

import { addDays, daysInclusive, defaultHistoryPeriod, isoDateInZone, minusMonths } from '@vigia/domain';

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

/** Today in America/Santiago. */
export function todayIso(now: Date = new Date()): string {
  return isoDateInZone(now);
}

/** The period a preset covers, ending today. */
export function presetPeriod(preset: PeriodPreset, today: string = todayIso()): Period {
  const from = preset.months ? minusMonths(today, preset.months) : addDays(today, -(preset.days ?? 0));
  return { from, to: today };
}

/** Seed default: one month back to today. */
export function defaultPeriod(now: Date = new Date()): Period {
  return defaultHistoryPeriod(now);
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

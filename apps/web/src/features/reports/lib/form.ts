import {
  addDays,
  DEFAULT_REPORT_TYPE,
  daysInclusive,
  isCalendarDate,
  REPORT_FORMATS,
  REPORT_MAX_DAYS,
  REPORT_TYPES,
  type ReportFormat,
  type ReportType,
} from '@vigia/domain';
import { RT } from './texts.js';

// The report request form in the URL (?type=&format=&from=&to=), with its defaults (Match, XLSX, the
// last 30 days) and its checks; pure so it is unit-tested.

export interface ReportForm {
  type: ReportType;
  format: ReportFormat;
  from: string;
  to: string;
}

export const DEFAULT_RANGE_DAYS = 30;

const day = (v: string | null) => (v !== null && isCalendarDate(v) ? v : null);

/**
 * The form of the URL; a value it does not offer reads as the default (and the form drops it from the URL
 * with a notice: RequestForm's useDropUnknownParams).
 */
export function readReportForm(params: URLSearchParams, today: string): ReportForm {
  const type = params.get('type');
  const format = params.get('format');
  return {
    type: (REPORT_TYPES as readonly string[]).includes(type ?? '')
      ? (type as ReportType)
      : DEFAULT_REPORT_TYPE,
    format: (REPORT_FORMATS as readonly string[]).includes(format ?? '') ? (format as ReportFormat) : 'xlsx',
    from: day(params.get('from')) ?? addDays(today, -(DEFAULT_RANGE_DAYS - 1)),
    to: day(params.get('to')) ?? today,
  };
}

export function writeReportForm(params: URLSearchParams, f: ReportForm): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set('type', f.type);
  next.set('format', f.format);
  next.set('from', f.from);
  next.set('to', f.to);
  return next;
}

const ISO = /^\d{4}-\d{2}-\d{2}$/;

/** The form's error (Spanish) and the field it belongs to; null when it can be sent. */
export function reportFormError(f: ReportForm): { field: 'from' | 'to'; message: string } | null {
  if (!ISO.test(f.from)) return { field: 'from', message: RT.errors.required };
  if (!ISO.test(f.to)) return { field: 'to', message: RT.errors.required };
  if (f.to < f.from) return { field: 'to', message: RT.errors.order };
  if (daysInclusive(f.from, f.to) > REPORT_MAX_DAYS)
    return { field: 'to', message: RT.errors.tooLong(REPORT_MAX_DAYS) };
  return null;
}

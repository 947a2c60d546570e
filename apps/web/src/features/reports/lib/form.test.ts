import { describe, expect, it } from 'vitest';
import { readReportForm, reportFormError, writeReportForm } from './form.js';

describe('report form in the URL', () => {
  it('defaults: Match, XLSX, the last 30 days ending today', () => {
    expect(readReportForm(new URLSearchParams(), '2026-11-25')).toEqual({
      type: 'match',
      format: 'xlsx',
      from: '2026-10-27',
      to: '2026-11-25',
    });
  });
  it('reads what the URL says and ignores unknown values', () => {
    const p = new URLSearchParams('type=prices&format=csv&from=2026-01-01&to=2026-01-31');
    expect(readReportForm(p, '2026-11-25')).toEqual({
      type: 'prices',
      format: 'csv',
      from: '2026-01-01',
      to: '2026-01-31',
    });
    expect(
      readReportForm(new URLSearchParams('type=nope&format=pdf&from=2026-02-30&to=ayer'), '2026-11-25'),
    ).toEqual({ type: 'match', format: 'xlsx', from: '2026-10-27', to: '2026-11-25' });
    const round = writeReportForm(new URLSearchParams('x=1'), readReportForm(p, '2026-11-25'));
    expect(round.toString()).toBe('x=1&type=prices&format=csv&from=2026-01-01&to=2026-01-31');
  });
  it('checks both dates, their order and the longest range (366 days)', () => {
    const f = { type: 'match' as const, format: 'xlsx' as const, from: '2026-01-01', to: '2026-01-31' };
    expect(reportFormError(f)).toBeNull();
    expect(reportFormError({ ...f, from: '01-01' })?.field).toBe('from');
    expect(reportFormError({ ...f, to: '2025-12-31' })).toEqual({
      field: 'to',
      message: 'La fecha «Hasta» es anterior a «Desde»',
    });
    expect(reportFormError({ ...f, from: '2025-01-01', to: '2026-01-01' })).toBeNull(); // 366 days
    expect(reportFormError({ ...f, from: '2025-01-01', to: '2026-01-02' })?.message).toBe(
      'El rango no puede superar 366 días',
    );
  });
});

import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { isCalendarDate, isoDateInZone, REPORT_FORMATS, REPORT_TYPES } from '@vigia/domain';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { calendarDay, oneOf, useDropUnknownParams } from '../../../components/data/url-state.js';
import { DateField } from '../../../components/filters/DateField.js';
import { useMarketZone } from '../../../lib/admin.js';
import { notify } from '../../../lib/notifier.js';
import { useUserSettings } from '../../../lib/settings.js';
import { requestReport } from '../api/reports.js';
import { type ReportForm, readReportForm, reportFormError, writeReportForm } from '../lib/form.js';
import { RT } from '../lib/texts.js';
import { ReportFormatField, ReportTypeField } from './parts.js';

/** Type, format and date range (kept in the URL), and the request button. */
export function RequestForm({ onRequested }: { onRequested: () => void }) {
  const [params, setParams] = useSearchParams();
  const today = isoDateInZone(new Date(), useMarketZone());
  // the URL holds only values the form offers (a type, a format, calendar days); anything else is dropped
  // with a notice like on every screen (issue 31 item 8)
  useDropUnknownParams([
    oneOf('type', REPORT_TYPES),
    oneOf('format', REPORT_FORMATS),
    calendarDay('from'),
    calendarDay('to'),
  ]);
  const url = readReportForm(params, today);
  // a date being typed (or cleared) stays in the field and reaches the URL once it is a day
  const [dates, setDates] = useState({ from: url.from, to: url.to });
  useEffect(() => setDates({ from: url.from, to: url.to }), [url.from, url.to]);
  const form: ReportForm = { ...url, ...dates };
  const settings = useUserSettings();
  const [sending, setSending] = useState(false);
  const [touched, setTouched] = useState(false);
  const error = reportFormError(form);

  const set = (patch: Partial<ReportForm>) =>
    setParams(writeReportForm(params, { ...url, ...patch }), { replace: true });
  const setDate = (key: 'from' | 'to', v: string) => {
    setDates((d) => ({ ...d, [key]: v }));
    if (isCalendarDate(v)) set({ [key]: v });
  };

  const submit = async () => {
    setTouched(true);
    if (error) return;
    setSending(true);
    try {
      await requestReport(
        {
          report_type: form.type,
          format: form.format,
          from_date: form.from,
          to_date: form.to,
          ...(settings.pivotId !== null ? { pivot_id: settings.pivotId } : {}),
          ...(settings.selectedSellers.length ? { sellers: settings.selectedSellers } : {}),
          currency: settings.currency,
        },
        settings.pivotId,
      );
      notify(RT.requested, 'success');
      onRequested();
    } catch {
      // the client's snackbar already says why (status message)
    } finally {
      setSending(false);
    }
  };

  const showError =
    touched || params.has('from') || params.has('to') || dates.from !== url.from || dates.to !== url.to;
  return (
    <Paper
      variant="outlined"
      component="form"
      aria-labelledby="report-request-title"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      sx={{ p: { xs: 2, md: 3 }, mb: 3 }}
    >
      <Typography id="report-request-title" variant="h6" component="h2" sx={{ mb: 2 }}>
        {RT.requestTitle}
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '1.2fr 0.8fr 1fr 1fr auto' },
          alignItems: 'start',
        }}
      >
        <ReportTypeField id="report-type" value={form.type} onChange={(type) => set({ type })} />
        <ReportFormatField id="report-format" value={form.format} onChange={(format) => set({ format })} />
        <DateField
          id="report-from"
          label={RT.from}
          value={form.from}
          max={today}
          onChange={(v) => setDate('from', v)}
          error={showError && error?.field === 'from'}
          helperText={showError && error?.field === 'from' ? error.message : undefined}
        />
        <DateField
          id="report-to"
          label={RT.to}
          value={form.to}
          max={today}
          onChange={(v) => setDate('to', v)}
          error={showError && error?.field === 'to'}
          helperText={showError && error?.field === 'to' ? error.message : undefined}
        />
        <Button type="submit" variant="contained" size="large" disabled={sending} sx={{ height: 56 }}>
          {sending ? RT.requesting : RT.request}
        </Button>
      </Box>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1.5 }}>
        {RT.scopeNote(settings.pivot?.name ?? '—', settings.selectedSellers.length, settings.currency)}
      </Typography>
    </Paper>
  );
}

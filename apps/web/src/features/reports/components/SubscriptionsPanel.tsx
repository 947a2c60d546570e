import MarkEmailReadOutlinedIcon from '@mui/icons-material/MarkEmailReadOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_SUBSCRIPTION_HOUR,
  DELIVERY_STATUS_LABELS,
  emailSchema,
  formatDateTime,
  REPORT_FORMAT_LABELS,
  REPORT_TYPE_LABELS,
  type ReportFormat,
  type ReportType,
  SUBSCRIPTION_FREQUENCIES,
  SUBSCRIPTION_FREQUENCY_LABELS,
  type SubscriptionFrequency,
  type SubscriptionItem,
  WEEKDAY_LABELS,
} from '@vigia/domain';
import { useState } from 'react';
import { ScrollTable } from '../../../components/data/ScrollTable.js';
import { notify } from '../../../lib/notifier.js';
import { reportKeys, sendSubscriptionNow, subscribe, unsubscribe, useSubscriptions } from '../api/reports.js';
import { RT } from '../lib/texts.js';
import { ChoiceField, LoadState, ReportFormatField, ReportTypeField } from './parts.js';

const hourLabel = (h: number) => `${String(h).padStart(2, '0')}:00`;
const HOURS = Array.from({ length: 24 }, (_, h) => h);
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

function when(s: SubscriptionItem): string {
  const at = hourLabel(s.hour);
  return s.frequency === 'daily'
    ? `${SUBSCRIPTION_FREQUENCY_LABELS.daily}, ${at}`
    : `${SUBSCRIPTION_FREQUENCY_LABELS.weekly}, ${WEEKDAY_LABELS[s.weekday - 1]} ${at}`;
}

function LastSend({ s }: { s: SubscriptionItem }) {
  const d = s.last_delivery;
  if (!d) return <Typography variant="body2">{RT.never}</Typography>;
  const color =
    d.status === 'sent'
      ? 'success'
      : d.status === 'failed'
        ? 'error'
        : d.status === 'retrying'
          ? 'warning'
          : 'info';
  return (
    <Box>
      <Chip size="small" variant="outlined" color={color} label={DELIVERY_STATUS_LABELS[d.status]} />
      <Typography variant="caption" color="text.secondary" component="div">
        {formatDateTime(d.sent_at ?? d.created_at)} · {RT.attempts(d.attempts)}
        {d.as_link ? ` · ${RT.asLink}` : ''}
        {d.next_attempt_at ? ` · ${RT.retryAt} ${formatDateTime(d.next_attempt_at)}` : ''}
      </Typography>
      {d.error && (
        <Typography variant="caption" color="error" component="div" sx={{ maxWidth: 280 }}>
          {d.error}
        </Typography>
      )}
    </Box>
  );
}

interface SubscribeDraft {
  email: string;
  report_type: ReportType;
  frequency: SubscriptionFrequency;
  hour: number;
  weekday: number;
  format: ReportFormat;
}

function SubscribeDialog({
  open,
  initialEmail,
  onClose,
}: {
  open: boolean;
  initialEmail: string;
  onClose: (saved: boolean) => void;
}) {
  const [d, setD] = useState<SubscribeDraft>({
    email: initialEmail,
    report_type: 'match',
    frequency: 'daily',
    hour: DEFAULT_SUBSCRIPTION_HOUR,
    weekday: 1,
    format: 'xlsx',
  });
  const [saving, setSaving] = useState(false);
  const [touched, setTouched] = useState(false);
  const emailOk = emailSchema.safeParse(d.email).success;
  const set = (p: Partial<SubscribeDraft>) => setD((x) => ({ ...x, ...p }));
  const save = async () => {
    setTouched(true);
    if (!emailOk) return;
    setSaving(true);
    try {
      await subscribe(d);
      notify(RT.subscribed, 'success');
      onClose(true);
    } catch {
      // the client's snackbar says why (403: address outside the organisation)
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog
      open={open}
      onClose={() => onClose(false)}
      aria-labelledby="subscribe-title"
      fullWidth
      maxWidth="xs"
    >
      <Box
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <DialogTitle id="subscribe-title">{RT.subscribe}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
          <TextField
            id="subscribe-email"
            label={RT.email}
            type="email"
            value={d.email}
            onChange={(e) => set({ email: e.target.value })}
            error={touched && !emailOk}
            helperText={touched && !emailOk ? RT.errors.email : undefined}
            autoFocus
          />
          <ReportTypeField
            id="subscribe-type"
            value={d.report_type}
            onChange={(report_type) => set({ report_type })}
          />
          <ChoiceField<SubscriptionFrequency>
            id="subscribe-frequency"
            label={RT.frequency}
            value={d.frequency}
            options={SUBSCRIPTION_FREQUENCIES}
            labelOf={(f) => SUBSCRIPTION_FREQUENCY_LABELS[f]}
            onChange={(frequency) => set({ frequency })}
          />
          {d.frequency === 'weekly' && (
            <ChoiceField<number>
              id="subscribe-weekday"
              label={RT.weekday}
              value={d.weekday}
              options={WEEKDAYS}
              labelOf={(w) => WEEKDAY_LABELS[w - 1]}
              onChange={(weekday) => set({ weekday })}
            />
          )}
          <ChoiceField<number>
            id="subscribe-hour"
            label={RT.hour}
            value={d.hour}
            options={HOURS}
            labelOf={hourLabel}
            onChange={(hour) => set({ hour })}
          />
          <ReportFormatField id="subscribe-format" value={d.format} onChange={(format) => set({ format })} />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => onClose(false)}>{RT.cancel}</Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {RT.save}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

function UnsubscribeDialog({
  target,
  onClose,
}: {
  target: SubscriptionItem | null;
  onClose: (done: boolean) => void;
}) {
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (!target) return;
    setBusy(true);
    try {
      await unsubscribe({ report_type: target.report_type, email: target.email });
      notify(RT.unsubscribed, 'success');
      onClose(true);
    } catch {
      // snackbar from the client
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={target !== null} onClose={() => onClose(false)} aria-labelledby="unsubscribe-title">
      <DialogTitle id="unsubscribe-title">{RT.confirmUnsubscribe}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {target ? `${REPORT_TYPE_LABELS[target.report_type]} → ${target.email}. ` : ''}
          {RT.unsubscribeBody}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose(false)}>{RT.cancel}</Button>
        <Button color="error" variant="contained" onClick={() => void confirm()} disabled={busy}>
          {RT.confirmUnsubscribe}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The e-mail subscriptions of an address (default: the user's), with their last send and the dialogs. */
export function SubscriptionsPanel({ userEmail }: { userEmail: string }) {
  const qc = useQueryClient();
  const [email, setEmail] = useState(userEmail);
  const [subscribing, setSubscribing] = useState(false);
  const [dialogKey, setDialogKey] = useState(0);
  const [removing, setRemoving] = useState<SubscriptionItem | null>(null);
  const valid = emailSchema.safeParse(email).success;
  const subs = useSubscriptions(valid ? email.trim().toLowerCase() : '');
  const reread = () => void qc.invalidateQueries({ queryKey: reportKeys.subscriptionsAll() });
  const [sending, setSending] = useState<number | null>(null);
  // "Enviar ahora": one send of that subscription now (the server allows one every few minutes and says so)
  const sendNow = async (s: SubscriptionItem) => {
    setSending(s.id);
    try {
      await sendSubscriptionNow(s.id);
      notify(RT.sendNowDone, 'success');
      reread();
    } catch {
      // the client's snackbar says why (429: sent a moment ago; 403: suspended)
    } finally {
      setSending(null);
    }
  };

  const state = LoadState({
    pending: subs.isPending,
    error: subs.isError,
    empty: !subs.data?.items.length,
    loadingText: RT.loadingSubs,
    errorText: RT.subsError,
    onRetry: () => void subs.refetch(),
    emptyIcon: <MarkEmailReadOutlinedIcon />,
    emptyTitle: RT.emptySubs,
  });
  const body = state ?? (
    <ScrollTable label={RT.subsTitle} outlined>
      <Table size="small" aria-label={RT.subsTitle}>
        <TableHead>
          <TableRow>
            <TableCell>{RT.email}</TableCell>
            <TableCell>{RT.col.type}</TableCell>
            <TableCell>{RT.frequency}</TableCell>
            <TableCell>{RT.col.format}</TableCell>
            <TableCell>{RT.next}</TableCell>
            <TableCell>{RT.lastSend}</TableCell>
            <TableCell align="right">{RT.col.actions}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {(subs.data?.items ?? []).map((s) => (
            <TableRow key={s.id} data-testid="subscription">
              <TableCell>{s.email}</TableCell>
              <TableCell>{REPORT_TYPE_LABELS[s.report_type]}</TableCell>
              <TableCell>
                {when(s)}
                <Typography variant="caption" color="text.secondary" component="div">
                  {s.timezone}
                </Typography>
              </TableCell>
              <TableCell>{REPORT_FORMAT_LABELS[s.format]}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {formatDateTime(s.next_run_at)}
                {s.suspended && (
                  <Typography
                    variant="caption"
                    color="warning.main"
                    component="div"
                    data-testid="subscription-suspended"
                    sx={{ whiteSpace: 'normal', maxWidth: 240 }}
                  >
                    {s.suspended}
                  </Typography>
                )}
              </TableCell>
              <TableCell>
                <LastSend s={s} />
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                <Button
                  size="small"
                  disabled={sending === s.id}
                  onClick={() => void sendNow(s)}
                  aria-label={`${RT.sendNow}: ${REPORT_TYPE_LABELS[s.report_type]}, ${s.email}`}
                >
                  {RT.sendNow}
                </Button>
                <Button
                  size="small"
                  color="error"
                  onClick={() => setRemoving(s)}
                  aria-label={`${RT.unsubscribe}: ${REPORT_TYPE_LABELS[s.report_type]}, ${s.email}`}
                >
                  {RT.unsubscribe}
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ScrollTable>
  );

  return (
    <Box component="section" aria-labelledby="report-subs-title">
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 2,
          alignItems: 'flex-end',
          justifyContent: 'space-between',
          mb: 1.5,
        }}
      >
        <Box>
          <Typography id="report-subs-title" variant="h6" component="h2">
            {RT.subsTitle}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {RT.subsBody}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', maxWidth: '100%' }}>
          <TextField
            id="subscriptions-email"
            size="small"
            label={RT.filterEmail}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={!valid && email !== ''}
            sx={{ minWidth: { xs: 0, sm: 260 }, flex: { xs: '1 1 200px', sm: '0 1 auto' } }}
          />
          <Button
            variant="contained"
            sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
            onClick={() => {
              setDialogKey((k) => k + 1);
              setSubscribing(true);
            }}
          >
            {RT.subscribe}
          </Button>
        </Box>
      </Box>
      {body}
      <SubscribeDialog
        key={dialogKey}
        open={subscribing}
        initialEmail={valid ? email : userEmail}
        onClose={(saved) => {
          setSubscribing(false);
          if (saved) reread();
        }}
      />
      <UnsubscribeDialog
        target={removing}
        onClose={(done) => {
          setRemoving(null);
          if (done) reread();
        }}
      />
    </Box>
  );
}

import ErrorOutlineRoundedIcon from '@mui/icons-material/ErrorOutlineRounded';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  REPORT_FORMAT_LABELS,
  REPORT_FORMATS,
  REPORT_TYPE_LABELS,
  REPORT_TYPES,
  type ReportFormat,
  type ReportType,
} from '@vigia/domain';
import type { ReactNode } from 'react';
import { StateMessage } from '../../../components/page/StateMessage.js';
import { RT } from '../lib/texts.js';

/** Loading (spinner + text), error (message + retry) or empty state of a list; null when it has rows. */
export function LoadState(props: {
  pending: boolean;
  error: boolean;
  empty: boolean;
  loadingText: string;
  errorText: string;
  onRetry: () => void;
  emptyIcon: ReactNode;
  emptyTitle: string;
  emptyBody?: string;
}): ReactNode {
  if (props.pending)
    return (
      <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 2, p: 3 }}>
        <CircularProgress size={24} />
        <Typography>{props.loadingText}</Typography>
      </Box>
    );
  if (props.error)
    return (
      <StateMessage
        icon={<ErrorOutlineRoundedIcon />}
        title={props.errorText}
        action={RT.retry}
        onAction={props.onRetry}
      />
    );
  if (props.empty)
    return <StateMessage icon={props.emptyIcon} title={props.emptyTitle} body={props.emptyBody} />;
  return null;
}

/** A select of fixed choices (value → Spanish label). */
export function ChoiceField<V extends string | number>(props: {
  id: string;
  label: string;
  value: V;
  options: readonly V[];
  labelOf: (v: V) => string;
  onChange: (v: V) => void;
}) {
  const { id, label, value, options, labelOf, onChange } = props;
  return (
    <TextField
      select
      id={id}
      label={label}
      value={value}
      onChange={(e) => {
        const raw = e.target.value;
        onChange((typeof value === 'number' ? Number(raw) : raw) as V);
      }}
    >
      {options.map((o) => (
        <MenuItem key={String(o)} value={o}>
          {labelOf(o)}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function ReportTypeField(p: { id: string; value: ReportType; onChange: (v: ReportType) => void }) {
  return <ChoiceField {...p} label={RT.type} options={REPORT_TYPES} labelOf={(t) => REPORT_TYPE_LABELS[t]} />;
}

export function ReportFormatField(p: {
  id: string;
  value: ReportFormat;
  onChange: (v: ReportFormat) => void;
}) {
  return (
    <ChoiceField {...p} label={RT.format} options={REPORT_FORMATS} labelOf={(f) => REPORT_FORMAT_LABELS[f]} />
  );
}

import ErrorOutlineRoundedIcon from '@mui/icons-material/ErrorOutlineRounded';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  licensedReportTypes,
  REPORT_FORMAT_LABELS,
  REPORT_FORMATS,
  REPORT_TYPE_LABELS,
  REPORT_TYPES,
  type ReportFormat,
  type ReportType,
} from '@vigia/domain';
import { type ReactNode, useEffect } from 'react';
import { StateMessage } from '../../../components/page/StateMessage.js';
import { useLicense } from '../../../lib/license.js';
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

/**
 * The report types the license grants (each needs the module whose data it carries, as the server
 * checks: REPORT_TYPE_MODULES); a value outside them (an old link) turns into the first granted one.
 */
export function ReportTypeField(p: { id: string; value: ReportType; onChange: (v: ReportType) => void }) {
  const license = useLicense();
  const types = license.loaded ? licensedReportTypes(license.modules) : REPORT_TYPES;
  const value = types.includes(p.value) || !types.length ? p.value : types[0];
  const { onChange } = p;
  useEffect(() => {
    if (value !== p.value) onChange(value);
  }, [value, p.value, onChange]);
  return (
    <ChoiceField
      {...p}
      value={value}
      label={RT.type}
      options={types.length ? types : [p.value]}
      labelOf={(t) => REPORT_TYPE_LABELS[t]}
    />
  );
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

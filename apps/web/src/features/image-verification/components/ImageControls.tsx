import { Box, MenuItem, Paper, TextField } from '@mui/material';
import { IMAGE_CLASS_LABELS, IMAGE_CLASSES } from '@vigia/domain';
import { useEffect, useState } from 'react';
import { DateField } from '../../../components/filters/index.js';
import { NumberField } from '../../../components/filters/NumberField.js';
import { IMAGE_TEXT as T } from '../lib/texts.js';
import { IMAGE_URL, type ImageSearch } from '../lib/use-image-search.js';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

const PERCENT = { min: 0, max: 100, decimals: 2 };
const urlNumber = (v: string) => (v.trim() === '' ? null : Number(v.replace(',', '.')));

/**
 * A similarity bound in % (0–100), typed with a decimal comma, written to the URL when it loses focus or
 * on Enter; out of bounds, or a minimum above the maximum, is said on the field (issue 31 item 4).
 */
function PercentField({
  id,
  label,
  value,
  error,
  onCommit,
}: {
  id: string;
  label: string;
  value: string;
  error?: string | null;
  onCommit: (v: string) => void;
}) {
  return (
    <NumberField
      id={id}
      size="small"
      label={label}
      value={urlNumber(value)}
      bounds={PERCENT}
      error={error}
      onCommit={(v) => onCommit(v === null ? '' : String(v))}
      slotProps={{ inputLabel: { shrink: true } }}
    />
  );
}

/** This screen's own filters: comparison date, class and similarity band (all in the URL). */
export function ImageControls({ s }: { s: ImageSearch }) {
  // the date is typed dd-mm-aaaa like every other date field; it reaches the URL once it is a date
  // (or emptied: the latest comparison)
  const [date, setDate] = useState(s.comparisonDate);
  useEffect(() => setDate(s.comparisonDate), [s.comparisonDate]);
  const min = urlNumber(s.minSimilarity);
  const max = urlNumber(s.maxSimilarity);
  const inverted = min !== null && max !== null && min > max;
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' },
        }}
      >
        <DateField
          id="iv-date"
          label={T.comparisonDate}
          value={date}
          onChange={(v) => {
            setDate(v);
            if (v === '' || ISO_DATE.test(v)) s.setParams({ [IMAGE_URL.date]: v });
          }}
          error={date !== '' && !ISO_DATE.test(date)}
          helperText={T.dateHint}
        />
        <TextField
          id="iv-status"
          select
          size="small"
          label={T.status}
          value={s.status}
          onChange={(e) => s.setParams({ [IMAGE_URL.status]: e.target.value })}
          slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
        >
          <MenuItem value="">{T.allStatuses}</MenuItem>
          {IMAGE_CLASSES.map((c) => (
            <MenuItem key={c} value={c}>
              {IMAGE_CLASS_LABELS[c]}
            </MenuItem>
          ))}
        </TextField>
        <PercentField
          id="iv-min"
          label={T.minSimilarity}
          value={s.minSimilarity}
          onCommit={(v) => s.setParams({ [IMAGE_URL.min]: v })}
        />
        <PercentField
          id="iv-max"
          label={T.maxSimilarity}
          value={s.maxSimilarity}
          error={inverted ? T.maxBelowMin : null}
          onCommit={(v) => s.setParams({ [IMAGE_URL.max]: v })}
        />
      </Box>
    </Paper>
  );
}

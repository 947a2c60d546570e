import { Box, MenuItem, Paper, TextField } from '@mui/material';
import { IMAGE_CLASS_LABELS, IMAGE_CLASSES } from '@vigia/domain';
import { useEffect, useState } from 'react';
import { DateField } from '../../../components/filters/index.js';
import { IMAGE_TEXT as T } from '../lib/texts.js';
import { IMAGE_URL, type ImageSearch } from '../lib/use-image-search.js';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A similarity bound in % (0–100) that writes its value to the URL when it loses focus or on Enter. */
function PercentField({
  id,
  label,
  value,
  onCommit,
}: {
  id: string;
  label: string;
  value: string;
  onCommit: (v: string) => void;
}) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  return (
    <TextField
      id={id}
      size="small"
      label={label}
      type="number"
      value={draft}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={() => draft !== value && onCommit(draft)}
      onKeyDown={(e) => e.key === 'Enter' && onCommit(draft)}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: 0, max: 100, step: 0.1 } }}
    />
  );
}

/** This screen's own filters: comparison date, class and similarity band (all in the URL). */
export function ImageControls({ s }: { s: ImageSearch }) {
  // the date is typed dd-mm-aaaa like every other date field; it reaches the URL once it is a date
  // (or emptied: the latest comparison)
  const [date, setDate] = useState(s.comparisonDate);
  useEffect(() => setDate(s.comparisonDate), [s.comparisonDate]);
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
          onCommit={(v) => s.setParams({ [IMAGE_URL.max]: v })}
        />
      </Box>
    </Paper>
  );
}

import { Box, MenuItem, Paper, TextField } from '@mui/material';
import { IMAGE_CLASS_LABELS, IMAGE_CLASSES } from '@vigia/domain';
import { useEffect, useState } from 'react';
import { IMAGE_TEXT as T } from '../lib/texts.js';
import { IMAGE_URL, type ImageSearch } from '../lib/use-image-search.js';

/** A text field that writes its value to the URL when it loses focus or on Enter. */
function CommittedField({
  label,
  value,
  onCommit,
  type = 'text',
  id,
}: {
  label: string;
  value: string;
  onCommit: (v: string) => void;
  type?: string;
  id: string;
}) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  return (
    <TextField
      id={id}
      size="small"
      label={label}
      type={type}
      value={draft}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={() => draft !== value && onCommit(draft)}
      onKeyDown={(e) => e.key === 'Enter' && onCommit(draft)}
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: type === 'number' ? { min: 0, max: 100, step: 0.1 } : {},
      }}
    />
  );
}

/** This screen's own filters: comparison date, class and similarity band (all in the URL). */
export function ImageControls({ s }: { s: ImageSearch }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' },
        }}
      >
        <CommittedField
          id="iv-date"
          label={T.comparisonDate}
          type="date"
          value={s.comparisonDate}
          onCommit={(v) => s.setParams({ [IMAGE_URL.date]: v })}
        />
        <TextField
          id="iv-status"
          select
          size="small"
          label={T.status}
          value={s.status}
          onChange={(e) => s.setParams({ [IMAGE_URL.status]: e.target.value })}
        >
          <MenuItem value="">{T.allStatuses}</MenuItem>
          {IMAGE_CLASSES.map((c) => (
            <MenuItem key={c} value={c}>
              {IMAGE_CLASS_LABELS[c]}
            </MenuItem>
          ))}
        </TextField>
        <CommittedField
          id="iv-min"
          label={T.minSimilarity}
          type="number"
          value={s.minSimilarity}
          onCommit={(v) => s.setParams({ [IMAGE_URL.min]: v })}
        />
        <CommittedField
          id="iv-max"
          label={T.maxSimilarity}
          type="number"
          value={s.maxSimilarity}
          onCommit={(v) => s.setParams({ [IMAGE_URL.max]: v })}
        />
      </Box>
    </Paper>
  );
}

import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { MAX_HISTORY_DAYS } from '@vigia/domain';
import { useEffect, useId, useState } from 'react';
import {
  matchingPreset,
  PERIOD_PRESETS,
  type Period,
  periodError,
  presetPeriod,
  todayIso,
} from '../period.js';

export interface PeriodPickerProps {
  value: Period;
  onChange: (period: Period) => void;
  maxDays?: number;
  disabled?: boolean;
}

/** Quick periods (7 días … 1 año) and two labelled date fields; a period is applied once it is valid. */
export function PeriodPicker({ value, onChange, maxDays = MAX_HISTORY_DAYS, disabled }: PeriodPickerProps) {
  const [draft, setDraft] = useState<Period>(value);
  const today = todayIso();
  const errorId = useId();
  useEffect(() => setDraft(value), [value]);

  const error = periodError(draft, maxDays, today);
  const update = (next: Period) => {
    setDraft(next);
    if (!periodError(next, maxDays, today)) onChange(next);
  };
  const preset = matchingPreset(value, today);

  return (
    <Box
      role="group"
      aria-label="Período"
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 1.5 }}
    >
      <ToggleButtonGroup
        size="small"
        exclusive
        color="primary"
        value={preset?.key ?? null}
        disabled={disabled}
        aria-label="Períodos rápidos"
        onChange={(_, key: string | null) => {
          const p = PERIOD_PRESETS.find((x) => x.key === key);
          if (p) update(presetPeriod(p, today));
        }}
        sx={{ '& .MuiToggleButton-root': { px: 1.25, py: 0.5, whiteSpace: 'nowrap' } }}
      >
        {PERIOD_PRESETS.map((p) => (
          <ToggleButton key={p.key} value={p.key}>
            {p.label}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <Box sx={{ display: 'flex', gap: 1 }}>
        <TextField
          type="date"
          label="Desde"
          value={draft.from}
          disabled={disabled}
          onChange={(e) => update({ ...draft, from: e.target.value })}
          error={!!error}
          slotProps={{
            inputLabel: { shrink: true },
            htmlInput: { max: draft.to || today, 'aria-describedby': error ? errorId : undefined },
          }}
          sx={{ width: 160 }}
        />
        <TextField
          type="date"
          label="Hasta"
          value={draft.to}
          disabled={disabled}
          onChange={(e) => update({ ...draft, to: e.target.value })}
          error={!!error}
          slotProps={{
            inputLabel: { shrink: true },
            htmlInput: { min: draft.from, max: today, 'aria-describedby': error ? errorId : undefined },
          }}
          sx={{ width: 160 }}
        />
      </Box>
      {error && (
        <Box
          id={errorId}
          role="alert"
          sx={{ color: 'error.main', typography: 'caption', alignSelf: 'center' }}
        >
          {error}
        </Box>
      )}
    </Box>
  );
}

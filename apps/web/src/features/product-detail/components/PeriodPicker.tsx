import Box from '@mui/material/Box';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { MAX_HISTORY_DAYS } from '@vigia/domain';
import { useEffect, useId, useState } from 'react';
import { DateField } from '../../../components/filters/DateField.js';
import { useMarketZone } from '../../../lib/admin.js';
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
  const today = todayIso(new Date(), useMarketZone());
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
        <DateField
          label="Desde"
          value={draft.from}
          disabled={disabled}
          onChange={(from) => update({ ...draft, from })}
          error={!!error}
          max={draft.to || today}
          describedBy={error ? errorId : undefined}
          sx={{ width: 170 }}
        />
        <DateField
          label="Hasta"
          value={draft.to}
          disabled={disabled}
          onChange={(to) => update({ ...draft, to })}
          error={!!error}
          min={draft.from}
          max={today}
          describedBy={error ? errorId : undefined}
          sx={{ width: 170 }}
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

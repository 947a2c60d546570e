import {
  Box,
  FormControl,
  FormHelperText,
  FormLabel,
  InputAdornment,
  Link,
  Skeleton,
  Slider,
  TextField,
  Typography,
} from '@mui/material';
import { formatNumber, formatPrice } from '@vigia/domain';
import { useEffect, useState } from 'react';
import { FILTER_TEXT } from './labels.js';

/** A round slider step for a range (about 200 steps): 1, 2, 5, 10, 20, 50, … */
export function sliderStep(min: number, max: number): number {
  const raw = Math.max(1, (max - min) / 200);
  const pow = 10 ** Math.floor(Math.log10(raw));
  const unit = [1, 2, 5, 10].find((m) => m * pow >= raw) ?? 10;
  return unit * pow;
}

/**
 * A price typed the Chilean way ('12.990', '12990', '$ 12.990', '12.990,5'): '.' groups thousands, ','
 * starts decimals. Null when it is not a number.
 */
export function parsePriceText(text: string): number | null {
  const cleaned = text
    .replace(/[^\d.,-]/g, '')
    .replace(/\./g, '')
    .replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(cleaned)) return null;
  return Number(cleaned);
}

/**
 * A typed range in the bounds: each end clamped into [min, max], the minimum floored and the maximum
 * ceiled (seed 001 §5), swapped when typed the wrong way round; null when it is the whole range.
 */
export function typedRange(
  lo: number,
  hi: number,
  bounds: { min: number; max: number },
): [number, number] | null {
  const clamp = (v: number) => Math.min(bounds.max, Math.max(bounds.min, v));
  const a = Math.floor(clamp(Math.min(lo, hi)));
  const b = Math.ceil(clamp(Math.max(lo, hi)));
  return a <= bounds.min && b >= bounds.max ? null : [a, b];
}

/** One end of the range as a text field: typed freely, applied on Enter or when leaving the field. */
function PriceInput({
  id,
  label,
  value,
  currency,
  onCommit,
}: {
  id: string;
  label: string;
  value: number;
  currency: string;
  onCommit: (v: number) => void;
}) {
  const shown = formatNumber(value);
  const [text, setText] = useState(shown);
  const [invalid, setInvalid] = useState(false);
  useEffect(() => {
    setText(shown);
    setInvalid(false);
  }, [shown]);
  const commit = () => {
    const v = parsePriceText(text);
    if (v === null) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    onCommit(v);
    setText(shown);
  };
  return (
    <TextField
      id={id}
      label={label}
      size="small"
      value={text}
      error={invalid}
      helperText={invalid ? 'Escribe un monto, por ejemplo 12.990' : undefined}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          commit();
        }
      }}
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: {
          inputMode: 'decimal',
          autoComplete: 'off',
          style: { fontVariantNumeric: 'tabular-nums' },
        },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              {formatPrice(0, currency).replace(/[\d\s.,]/g, '') || '$'}
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

export interface PriceRangeFieldProps {
  id: string;
  /** Bounds offered by the server (price-range-scores); undefined while pending or unavailable. */
  bounds?: { min: number; max: number };
  pending: boolean;
  /** The selected range; null = the whole range (not active, not sent). */
  value: [number, number] | null;
  onChange: (next: [number, number] | null) => void;
  currency: string;
  error?: string;
}

/**
 * The price range: a slider and two typed ends (the slider moves in round steps; a typed value is kept
 * as typed, floored / ceiled). Pending → ready; active (sent) only once narrowed; 'Todo el rango' resets.
 */
export function PriceRangeField({
  id,
  bounds,
  pending,
  value,
  onChange,
  currency,
  error,
}: PriceRangeFieldProps) {
  const labelId = `${id}-label`;
  const ready = !!bounds && bounds.max > bounds.min;
  const min = bounds ? Math.floor(bounds.min) : 0;
  const max = bounds ? Math.ceil(bounds.max) : 0;
  const current: [number, number] = value
    ? [Math.max(min, Math.min(value[0], max)), Math.min(max, Math.max(value[1], min))]
    : [min, max];
  // A range from the link while the bounds are unknown counts as active too (so it can be reset).
  const active = !!value && (!ready || current[0] > min || current[1] < max);
  return (
    <FormControl error={!!error} fullWidth component="fieldset" sx={{ minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between' }}>
        <FormLabel id={labelId} component="legend" sx={{ fontSize: 12, fontWeight: 600 }}>
          {FILTER_TEXT.priceRange}
        </FormLabel>
        {active && (
          <Link component="button" type="button" variant="caption" onClick={() => onChange(null)}>
            Todo el rango
          </Link>
        )}
      </Box>
      {pending && !ready ? (
        <Skeleton variant="rounded" height={28} sx={{ mt: 1 }} aria-label="Cargando rango de precios" />
      ) : ready ? (
        <>
          <Box sx={{ px: 1 }}>
            <Slider
              aria-labelledby={labelId}
              getAriaLabel={(i) => (i === 0 ? FILTER_TEXT.minPrice : FILTER_TEXT.maxPrice)}
              getAriaValueText={(v) => formatPrice(v, currency)}
              value={current}
              min={min}
              max={max}
              step={sliderStep(min, max)}
              size="small"
              color={active ? 'secondary' : 'primary'}
              disableSwap
              onChange={(_, v) => {
                const [a, b] = v as number[];
                onChange(a <= min && b >= max ? null : [a, b]);
              }}
            />
          </Box>
          <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1, mt: 0.5 }}>
            <PriceInput
              id={`${id}-min`}
              label={FILTER_TEXT.typedMin}
              value={Math.floor(current[0])}
              currency={currency}
              onCommit={(v) => onChange(typedRange(v, current[1], { min, max }))}
            />
            <PriceInput
              id={`${id}-max`}
              label={FILTER_TEXT.typedMax}
              value={Math.ceil(current[1])}
              currency={currency}
              onCommit={(v) => onChange(typedRange(current[0], v, { min, max }))}
            />
          </Box>
        </>
      ) : (
        <Typography variant="caption" sx={{ color: 'text.secondary', mt: 1 }}>
          {value
            ? `${formatPrice(value[0], currency)} – ${formatPrice(value[1], currency)}`
            : 'Rango no disponible con los filtros actuales.'}
        </Typography>
      )}
      {error && <FormHelperText>{error}</FormHelperText>}
    </FormControl>
  );
}

import {
  Box,
  FormControl,
  FormHelperText,
  FormLabel,
  Link,
  Skeleton,
  Slider,
  Typography,
} from '@mui/material';
import { formatPrice } from '@vigia/domain';
import { FILTER_TEXT } from './labels.js';

/** A round slider step for a range (about 200 steps): 1, 2, 5, 10, 20, 50, … */
export function sliderStep(min: number, max: number): number {
  const raw = Math.max(1, (max - min) / 200);
  const pow = 10 ** Math.floor(Math.log10(raw));
  const unit = [1, 2, 5, 10].find((m) => m * pow >= raw) ?? 10;
  return unit * pow;
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

/** The price-range slider: pending → ready; active (sent) only once narrowed; 'Todo el rango' resets it. */
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
  const active = !!value && (current[0] > min || current[1] < max);
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
          <Box sx={{ display: 'flex', justifyContent: 'space-between', mt: -0.5 }}>
            <Typography
              variant="caption"
              sx={{ fontVariantNumeric: 'tabular-nums', fontWeight: active ? 700 : 400 }}
            >
              {formatPrice(Math.floor(current[0]), currency)}
            </Typography>
            <Typography
              variant="caption"
              sx={{ fontVariantNumeric: 'tabular-nums', fontWeight: active ? 700 : 400 }}
            >
              {formatPrice(Math.ceil(current[1]), currency)}
            </Typography>
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

import {
  Box,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  InputLabel,
  ListItemText,
  ListSubheader,
  MenuItem,
  Select,
  Switch,
  ToggleButton,
  ToggleButtonGroup,
} from '@mui/material';
import {
  MPI_RANGES,
  type MpiRange,
  PRICE_MODES,
  PRICE_TYPES,
  type PriceMode,
  type PricingTypeOption,
} from '@vigia/domain';
import { useLicense } from '../../../lib/license.js';
import { PRICE_TYPE_FLAGS } from '../filter-fields.js';
import { FILTER_TEXT, MPI_RANGE_LABELS, PRICE_MODE_LABELS, PRICE_TYPE_OPTION_LABELS } from '../labels.js';
import type { FilterPanelState } from '../use-filter-panel.js';

// The single- and multiple-choice filters with fixed options.

const PRICE_CONDITIONS = Object.values(PRICE_TYPE_FLAGS);

/** The pivot's price types, plus the two conditions the request sends as flags (match, stockOut). */
export function PriceTypeControl({ panel }: { panel: FilterPanelState }) {
  const value = panel.draft.price_type;
  const error = panel.errors.price_type;
  const labelId = panel.idOf('price-type-label');
  const option = (t: PricingTypeOption) => (
    <MenuItem key={t} value={t} dense>
      <Checkbox size="small" checked={value.includes(t)} sx={{ p: 0.5, mr: 1 }} />
      <ListItemText primary={PRICE_TYPE_OPTION_LABELS[t]} />
    </MenuItem>
  );
  return (
    <FormControl error={!!error} fullWidth>
      <InputLabel id={labelId} shrink>
        {FILTER_TEXT.priceType}
      </InputLabel>
      <Select<PricingTypeOption[]>
        labelId={labelId}
        id={panel.idOf('price-type')}
        multiple
        notched
        displayEmpty
        label={FILTER_TEXT.priceType}
        value={value}
        onChange={(e) => {
          const v = e.target.value;
          panel.setField('price_type', (typeof v === 'string' ? v.split(',') : v) as PricingTypeOption[]);
        }}
        renderValue={(sel) =>
          sel.length ? (
            sel.map((t) => PRICE_TYPE_OPTION_LABELS[t]).join(', ')
          ) : (
            <Box component="span" sx={{ color: 'text.disabled' }}>
              Todos
            </Box>
          )
        }
      >
        <ListSubheader>Precio del pivote</ListSubheader>
        {PRICE_TYPES.map(option)}
        <ListSubheader>Condición</ListSubheader>
        {PRICE_CONDITIONS.map(option)}
      </Select>
      {error && <FormHelperText>{error}</FormHelperText>}
    </FormControl>
  );
}

/** The price-index buckets (mpi_range). */
export function PriceIndexControl({ panel }: { panel: FilterPanelState }) {
  const error = panel.errors.mpi_range;
  return (
    <FormControl component="fieldset" error={!!error} sx={{ minWidth: 0 }}>
      <FormLabel component="legend" sx={{ fontSize: 12, fontWeight: 600, mb: 0.5 }}>
        {FILTER_TEXT.priceIndex}
      </FormLabel>
      <ToggleButtonGroup
        size="small"
        value={panel.draft.mpi_range}
        onChange={(_, v: MpiRange[]) => panel.setField('mpi_range', v)}
        aria-label={FILTER_TEXT.priceIndex}
        fullWidth
        color="secondary"
      >
        {MPI_RANGES.map((r) => (
          <ToggleButton key={r} value={r} sx={{ py: 0.5, fontSize: 12, textTransform: 'none' }}>
            {MPI_RANGE_LABELS[r]}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {error && <FormHelperText>{error}</FormHelperText>}
    </FormControl>
  );
}

/** The license's currencies; the top bar's currency is the default (kept out of the URL). */
export function CurrencyControl({ panel }: { panel: FilterPanelState }) {
  const license = useLicense();
  const error = panel.errors.currency;
  const labelId = panel.idOf('currency-label');
  const fallback = panel.search.defaults.currency;
  return (
    <FormControl error={!!error} fullWidth>
      <InputLabel id={labelId}>{FILTER_TEXT.currency}</InputLabel>
      <Select
        labelId={labelId}
        id={panel.idOf('currency')}
        label={FILTER_TEXT.currency}
        value={license.currencies.some((c) => c.acronym === panel.currency) ? panel.currency : ''}
        onChange={(e) => panel.setField('currency', e.target.value === fallback ? '' : e.target.value)}
      >
        {license.currencies.map((c) => (
          <MenuItem key={c.acronym} value={c.acronym}>
            {c.acronym} · {c.name}
          </MenuItem>
        ))}
      </Select>
      {error && <FormHelperText>{error}</FormHelperText>}
    </FormControl>
  );
}

/** Which prices count in the effective price; the screen's default is kept out of the URL. */
export function PriceModeControl({ panel }: { panel: FilterPanelState }) {
  const error = panel.errors.priceMode;
  const labelId = panel.idOf('price-mode-label');
  const fallback = panel.search.defaults.priceMode;
  return (
    <FormControl error={!!error} fullWidth>
      <InputLabel id={labelId}>{FILTER_TEXT.priceMode}</InputLabel>
      <Select<PriceMode>
        labelId={labelId}
        id={panel.idOf('price-mode')}
        label={FILTER_TEXT.priceMode}
        value={panel.draft.priceMode || fallback}
        onChange={(e) =>
          panel.setField('priceMode', e.target.value === fallback ? '' : (e.target.value as PriceMode))
        }
      >
        {PRICE_MODES.map((m) => (
          <MenuItem key={m} value={m}>
            {PRICE_MODE_LABELS[m]}
          </MenuItem>
        ))}
      </Select>
      {error && <FormHelperText>{error}</FormHelperText>}
    </FormControl>
  );
}

export function OwnBrandsControl({ panel }: { panel: FilterPanelState }) {
  return (
    <FormControlLabel
      sx={{ alignSelf: 'center' }}
      control={
        <Switch
          checked={panel.draft.ownBrands}
          onChange={(e) => panel.setField('ownBrands', e.target.checked)}
        />
      }
      label={FILTER_TEXT.ownBrands}
    />
  );
}

import { Box } from '@mui/material';
import { DateField } from '../DateField.js';
import { FILTER_TEXT } from '../labels.js';
import { PriceRangeField } from '../PriceRangeField.js';
import type { FilterPanelState } from '../use-filter-panel.js';

/** The observation window: two days, each bounding the other's calendar. */
export function DatesControl({ panel }: { panel: FilterPanelState }) {
  const { draft, errors } = panel;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1 }}>
      <DateField
        id={panel.idOf('from')}
        label={FILTER_TEXT.fromDate}
        value={draft.from_date}
        onChange={(v) => panel.setField('from_date', v)}
        error={!!errors.from_date}
        helperText={errors.from_date}
        max={draft.to_date || undefined}
      />
      <DateField
        id={panel.idOf('to')}
        label={FILTER_TEXT.toDate}
        value={draft.to_date}
        onChange={(v) => panel.setField('to_date', v)}
        error={!!errors.to_date}
        helperText={errors.to_date}
        min={draft.from_date || undefined}
      />
    </Box>
  );
}

/** The price range (slider and typed bounds); only on screens that request its scores. */
export function PriceRangeControl({ panel }: { panel: FilterPanelState }) {
  if (!panel.priceRange) return null;
  return (
    <PriceRangeField
      id={panel.idOf('price-range')}
      bounds={panel.priceRange.bounds}
      pending={panel.priceRange.pending}
      value={panel.range}
      onChange={panel.setRange}
      currency={panel.currency}
      error={panel.errors.priceRange}
    />
  );
}

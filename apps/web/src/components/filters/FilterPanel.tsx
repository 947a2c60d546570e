import SearchIcon from '@mui/icons-material/Search';
import { Alert, Box, Button, CircularProgress, Collapse, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { FILTER_CONTROLS } from './controls/index.js';
import { FilterSummary } from './FilterSummary.js';
import { FILTER_TEXT } from './labels.js';
import { type FilterField, type PriceRangeBounds, useFilterPanel } from './use-filter-panel.js';
import type { FilterSearch } from './use-filter-search.js';

export type { FilterField } from './use-filter-panel.js';

/** Every control, in the panel's order. */
export const ALL_FILTER_FIELDS = Object.keys(FILTER_CONTROLS) as FilterField[];

export interface FilterPanelProps {
  search: FilterSearch;
  fields?: readonly FilterField[];
  /** Price-range scores for the slider (the screen requests them). */
  priceRange?: PriceRangeBounds;
  /**
   * Pasted SKUs the screen's answer found in no product (its KPI answer's skus_not_found): named under
   * the SKU field, next to the ones not understood.
   */
  skusNotFound?: readonly string[];
  /** A request of the screen is running (spinner on 'Buscar'). */
  busy?: boolean;
  /** Open at first (wide screens; on a phone it starts closed). */
  defaultExpanded?: boolean;
  /** Extra controls of the screen, placed after the shared ones. */
  children?: ReactNode;
}

/**
 * The shared filter panel (seed 001 §3 Filters): collapsible, 'Buscar' runs the search flow (invalid
 * fields are marked in place and nothing is sent), 'Limpiar' clears; the filters live in the URL.
 * State: useFilterPanel; header: FilterSummary; one control per field: controls/.
 */
export function FilterPanel({
  search,
  fields = ALL_FILTER_FIELDS,
  priceRange,
  skusNotFound,
  busy,
  defaultExpanded = true,
  children,
}: FilterPanelProps) {
  const panel = useFilterPanel({ search, fields, priceRange, defaultExpanded, skusNotFound });
  const bodyId = panel.idOf('body');
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={FILTER_TEXT.panelTitle}
      sx={{ borderRadius: 2 }}
    >
      <FilterSummary panel={panel} bodyId={bodyId} />
      <Collapse in={panel.expanded} timeout="auto">
        <Box
          component="form"
          id={bodyId}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            panel.submit();
          }}
          sx={{ px: 2, pb: 2, pt: 1, borderTop: 1, borderColor: 'divider' }}
        >
          <Box
            sx={{
              display: 'grid',
              gap: 2,
              pt: 1,
              gridTemplateColumns: {
                xs: '1fr',
                sm: 'repeat(2, minmax(0, 1fr))',
                lg: 'repeat(4, minmax(0, 1fr))',
              },
              alignItems: 'start',
            }}
          >
            {ALL_FILTER_FIELDS.filter(panel.show).map((field) => {
              const Control = FILTER_CONTROLS[field];
              return <Control key={field} panel={panel} />;
            })}
            {children}
          </Box>
          {search.errors.length > 0 && (
            <Alert severity="error" sx={{ mt: 2 }} role="alert">
              {FILTER_TEXT.invalidSummary}
            </Alert>
          )}
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 2, flexWrap: 'wrap' }}>
            <Typography variant="caption" sx={{ color: 'text.secondary', flex: 1, minWidth: 200 }}>
              {FILTER_TEXT.shareHint}
            </Typography>
            <Button type="button" onClick={panel.clear} color="inherit">
              {FILTER_TEXT.clear}
            </Button>
            <Button
              type="submit"
              variant="contained"
              startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <SearchIcon />}
            >
              {FILTER_TEXT.search}
            </Button>
          </Box>
        </Box>
      </Collapse>
    </Paper>
  );
}

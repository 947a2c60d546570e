import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import FilterListIcon from '@mui/icons-material/FilterList';
import { Box, ButtonBase, Chip, Typography } from '@mui/material';
import { visuallyHidden } from '../data/DataTable.js';
import { countActiveFilters, summarizeFilters } from './filter-url.js';
import { FILTER_TEXT } from './labels.js';
import type { FilterPanelState } from './use-filter-panel.js';

/**
 * The panel's header: opens and closes it; shows how many filters apply and, while closed, a short text
 * for each (from the URL, i.e. what the results show).
 */
export function FilterSummary({ panel, bodyId }: { panel: FilterPanelState; bodyId: string }) {
  const { search, expanded } = panel;
  const active = countActiveFilters(search.url);
  const summary = summarizeFilters(search.url, search.url.selection.currency || search.defaults.currency);
  return (
    <ButtonBase
      onClick={panel.toggle}
      aria-expanded={expanded}
      aria-controls={bodyId}
      sx={{
        width: '100%',
        justifyContent: 'flex-start',
        gap: 1.5,
        px: 2,
        py: 1.25,
        borderRadius: 2,
        textAlign: 'left',
        '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 },
      }}
    >
      <FilterListIcon color="primary" fontSize="small" />
      <Typography variant="subtitle1" component="span" sx={{ fontWeight: 700 }}>
        {/* the name is what the button shows, led by what it does (an aria-label hid the summary) */}
        <Box component="span" sx={visuallyHidden}>
          {expanded ? FILTER_TEXT.hideFilters : FILTER_TEXT.showFilters}{' '}
        </Box>
        {FILTER_TEXT.panelTitle}
      </Typography>
      {active > 0 && <Chip size="small" color="primary" label={active} sx={{ height: 20, minWidth: 20 }} />}
      <Box
        sx={{
          flex: 1,
          minWidth: 0,
          display: 'flex',
          gap: 0.75,
          overflow: 'hidden',
          opacity: expanded ? 0 : 1,
          transition: 'opacity .2s',
        }}
        aria-hidden={expanded}
      >
        {summary.length === 0 ? (
          <Typography variant="body2" component="span" sx={{ color: 'text.secondary' }}>
            Sin filtros: todos tus productos frente a tus competidores.
          </Typography>
        ) : (
          summary.map((text) => (
            <Chip key={text} size="small" variant="outlined" label={text} sx={{ maxWidth: 220 }} />
          ))
        )}
      </Box>
      <ExpandMoreIcon
        sx={{
          transition: 'transform .2s',
          transform: expanded ? 'rotate(180deg)' : 'none',
          color: 'text.secondary',
        }}
      />
    </ButtonBase>
  );
}

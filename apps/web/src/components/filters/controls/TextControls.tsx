import SearchIcon from '@mui/icons-material/Search';
import { InputAdornment, TextField } from '@mui/material';
import { skuFeedback } from '../filter-url.js';
import { FILTER_TEXT } from '../labels.js';
import type { FilterPanelState } from '../use-filter-panel.js';

export function MetaSearchControl({ panel }: { panel: FilterPanelState }) {
  const error = panel.errors.metaSearch;
  return (
    <TextField
      id={panel.idOf('metaSearch')}
      label={FILTER_TEXT.metaSearch}
      value={panel.draft.metaSearch}
      onChange={(e) => panel.setField('metaSearch', e.target.value)}
      placeholder={FILTER_TEXT.metaSearchPlaceholder}
      error={!!error}
      helperText={error}
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: { maxLength: 200 },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/**
 * SKUs pasted from a spreadsheet: says how many are understood, names the ones that are not, and the
 * ones the last search found in no product ("No encontrados: …").
 */
export function SkusControl({ panel }: { panel: FilterPanelState }) {
  const error = panel.errors.SKUs;
  return (
    <TextField
      id={panel.idOf('skus')}
      label={FILTER_TEXT.skus}
      value={panel.draft.SKUs}
      onChange={(e) => panel.setField('SKUs', e.target.value)}
      placeholder={FILTER_TEXT.skusPlaceholder}
      multiline
      minRows={1}
      maxRows={4}
      error={!!error}
      helperText={error ?? skuFeedback(panel.draft.SKUs, panel.skusNotFound)}
      slotProps={{ inputLabel: { shrink: true } }}
    />
  );
}

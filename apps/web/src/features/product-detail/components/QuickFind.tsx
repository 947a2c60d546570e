import SearchRoundedIcon from '@mui/icons-material/SearchRounded';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { formatPrice, productDisplayName, type QuickFindItem } from '@vigia/domain';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { ProductThumb } from '../../../components/data/DataTable.js';
import { appPath } from '../../../lib/paths.js';
import { useUserSettings } from '../../../lib/settings.js';
import { detailQueries } from '../api/queries.js';
import { productPath } from '../links.js';

const SEE_ALL = 'Ver todos en la lista de productos';

const MIN_CHARS = 2;

/** The last option: every match of the text, in the product list (quick find shows the first few). */
interface SeeAll {
  kind: 'all';
  query: string;
}
type QuickFindOption = QuickFindItem | SeeAll;
const isSeeAll = (o: QuickFindOption): o is SeeAll => 'kind' in o;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

export interface QuickFindProps {
  /** Width of the field; full width of its container by default. */
  width?: number | string;
  /** Compact look for a dark top bar. */
  variant?: 'default' | 'toolbar';
  placeholder?: string;
}

/**
 * Quick find (POST /v2/quickFind): type a name, SKU, EAN or the seller's product id and open the
 * product's detail. Keyboard: arrows to move, Enter to open, Escape to clear.
 */
export function QuickFind({
  width = '100%',
  variant = 'default',
  placeholder = 'Nombre, SKU o EAN',
}: QuickFindProps) {
  const navigate = useNavigate();
  const { pivotId, currency } = useUserSettings();
  const [input, setInput] = useState('');
  const query = useDebounced(input.trim(), 250);
  const enabled = query.length >= MIN_CHARS;
  const result = useQuery({
    ...detailQueries.quickFind(query, pivotId, currency),
    enabled,
    placeholderData: keepPreviousData,
  });
  const items = enabled ? (result.data?.items ?? []) : [];
  const options: QuickFindOption[] = items.length > 0 ? [...items, { kind: 'all', query }] : [];
  const loading = enabled && result.isFetching;

  return (
    <Autocomplete<QuickFindOption, false, false, false>
      sx={{ width }}
      options={options}
      filterOptions={(x) => x}
      getOptionLabel={(o) => (isSeeAll(o) ? SEE_ALL : productDisplayName(o.name))}
      isOptionEqualToValue={(a, b) =>
        isSeeAll(a) || isSeeAll(b) ? isSeeAll(a) && isSeeAll(b) : a.id === b.id
      }
      value={null}
      inputValue={input}
      onInputChange={(_, value, reason) => {
        if (reason !== 'reset') setInput(value);
      }}
      onChange={(_, option) => {
        if (!option) return;
        setInput('');
        if (isSeeAll(option))
          navigate(`${appPath('product-list')}?${new URLSearchParams({ q: option.query })}`);
        else navigate(productPath(option.id));
      }}
      loading={loading}
      autoHighlight
      blurOnSelect
      clearOnEscape
      noOptionsText={input.trim().length < MIN_CHARS ? 'Escribe al menos 2 caracteres' : 'Sin resultados'}
      loadingText="Buscando…"
      slotProps={{ paper: { sx: { minWidth: 420 } } }}
      renderOption={({ key, ...props }, o) =>
        isSeeAll(o) ? (
          <Box
            component="li"
            key={key}
            {...props}
            sx={{ borderTop: 1, borderColor: 'divider', color: 'primary.main', fontWeight: 600 }}
          >
            {SEE_ALL}
          </Box>
        ) : (
          <Box component="li" key={key} {...props} sx={{ display: 'flex', gap: 1.5, alignItems: 'center' }}>
            <ProductThumb src={o.image} alt="" size={36} />
            <Box sx={{ minWidth: 0, flex: 1 }}>
              <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap>
                {productDisplayName(o.name)}
              </Typography>
              <Typography variant="caption" sx={{ color: 'text.secondary' }} noWrap component="p">
                {[o.brand, o.sku && `SKU ${o.sku}`, o.ean && `EAN ${o.ean}`].filter(Boolean).join(' · ')}
              </Typography>
            </Box>
            <Typography
              variant="body2"
              sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
            >
              {formatPrice(o.price, o.currency)}
            </Typography>
          </Box>
        )
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={variant === 'toolbar' ? undefined : 'Buscar producto'}
          placeholder={placeholder}
          slotProps={{
            input: {
              ...params.InputProps,
              startAdornment: (
                <InputAdornment position="start">
                  <SearchRoundedIcon fontSize="small" />
                </InputAdornment>
              ),
              endAdornment: (
                <>
                  {loading ? <CircularProgress color="inherit" size={16} /> : null}
                  {params.InputProps.endAdornment}
                </>
              ),
            },
            htmlInput: { ...params.inputProps, 'aria-label': 'Buscar producto' },
          }}
          sx={
            variant === 'toolbar'
              ? {
                  '& .MuiOutlinedInput-root': {
                    bgcolor: 'rgba(255,255,255,0.14)',
                    color: 'inherit',
                    borderRadius: 2,
                  },
                  '& .MuiOutlinedInput-notchedOutline': { borderColor: 'rgba(255,255,255,0.25)' },
                  '& .MuiSvgIcon-root': { color: 'inherit' },
                }
              : { bgcolor: 'background.paper' }
          }
        />
      )}
    />
  );
}

export default QuickFind;

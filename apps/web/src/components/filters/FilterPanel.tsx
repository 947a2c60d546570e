import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import FilterListIcon from '@mui/icons-material/FilterList';
import SearchIcon from '@mui/icons-material/Search';
import {
  Alert,
  Box,
  Button,
  ButtonBase,
  Checkbox,
  Chip,
  CircularProgress,
  Collapse,
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  InputAdornment,
  InputLabel,
  ListItemText,
  ListSubheader,
  MenuItem,
  Paper,
  Select,
  Switch,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import {
  formatDate,
  formatPrice,
  MPI_RANGES,
  type MpiRange,
  PRICE_MODES,
  PRICE_TYPES,
  type PriceMode,
  type PricingTypeOption,
  parseSkus,
} from '@vigia/domain';
import { type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import { licenseQueries, useLicense, useLicenseBrands } from '../../lib/license.js';
import { DateField } from './DateField.js';
import { countActiveFilters, EMPTY_SELECTION, type PanelSelection } from './filter-url.js';
import {
  errorsByControl,
  FILTER_TEXT,
  MPI_RANGE_LABELS,
  PRICE_MODE_LABELS,
  PRICE_TYPE_OPTION_LABELS,
} from './labels.js';
import { type FieldOption, OptionsField } from './OptionsField.js';
import { PriceRangeField } from './PriceRangeField.js';
import { flattenTree } from './tree-options.js';
import type { FilterSearch } from './use-filter-search.js';

/** Controls a screen can show. */
export type FilterField =
  | 'classificationsIds'
  | 'categories'
  | 'brands'
  | 'ownBrands'
  | 'sellersIds'
  | 'SKUs'
  | 'metaSearch'
  | 'currency'
  | 'priceRange'
  | 'dates'
  | 'price_type'
  | 'mpi_range'
  | 'priceMode';

export const ALL_FILTER_FIELDS: readonly FilterField[] = [
  'classificationsIds',
  'categories',
  'brands',
  'metaSearch',
  'sellersIds',
  'SKUs',
  'price_type',
  'mpi_range',
  'currency',
  'priceMode',
  'dates',
  'priceRange',
  'ownBrands',
];

export interface FilterPanelProps {
  search: FilterSearch;
  fields?: readonly FilterField[];
  /** Price-range scores for the slider (the screen requests them). */
  priceRange?: { bounds?: { min: number; max: number }; pending: boolean };
  /** A request of the screen is running (spinner on 'Buscar'). */
  busy?: boolean;
  defaultExpanded?: boolean;
  /** Extra controls of the screen, placed after the shared ones. */
  children?: ReactNode;
}

const PRICE_CONDITIONS = ['MATCH', 'STOCK_OUT'] as const;

function rangeOf(search: FilterSearch): [number, number] | null {
  const r = search.url.priceRange;
  return r ? [r.minPrice, r.maxPrice] : null;
}

/** Short texts of the applied filters, shown when the panel is collapsed. */
function summaryOf(search: FilterSearch, currency: string): string[] {
  const s = search.url.selection;
  const out: string[] = [];
  const n = (count: number, one: string, many: string) => (count === 1 ? `1 ${one}` : `${count} ${many}`);
  if (s.classificationsIds.length)
    out.push(n(s.classificationsIds.length, 'clasificación', 'clasificaciones'));
  if (s.categories.length) out.push(n(s.categories.length, 'categoría', 'categorías'));
  if (s.brands.length) out.push(n(s.brands.length, 'marca', 'marcas'));
  if (s.ownBrands) out.push(FILTER_TEXT.ownBrands);
  if (s.sellersIds.length) out.push(n(s.sellersIds.length, 'eCommerce', 'eCommerce'));
  const skus = parseSkus(s.SKUs).length;
  if (skus) out.push(n(skus, 'SKU', 'SKUs'));
  if (s.metaSearch.trim()) out.push(`“${s.metaSearch.trim()}”`);
  if (s.price_type.length) out.push(s.price_type.map((t) => PRICE_TYPE_OPTION_LABELS[t]).join(', '));
  if (s.mpi_range.length) out.push(s.mpi_range.map((r) => MPI_RANGE_LABELS[r]).join(', '));
  if (s.currency) out.push(s.currency);
  if (s.priceMode) out.push(PRICE_MODE_LABELS[s.priceMode]);
  if (s.from_date || s.to_date)
    out.push(`${s.from_date ? formatDate(s.from_date) : '…'} → ${s.to_date ? formatDate(s.to_date) : '…'}`);
  const r = search.url.priceRange;
  if (r) out.push(`${formatPrice(r.minPrice, currency)} – ${formatPrice(r.maxPrice, currency)}`);
  return out;
}

/**
 * The shared filter panel (seed 001 §3 Filters): collapsible, 'Buscar' runs the search flow (invalid
 * fields are marked in place and nothing is sent), 'Limpiar' clears; the filters live in the URL.
 */
export function FilterPanel({
  search,
  fields = ALL_FILTER_FIELDS,
  priceRange,
  busy,
  defaultExpanded = true,
  children,
}: FilterPanelProps) {
  const uid = useId();
  const idOf = (name: string) => `${uid}-${name}`;
  const show = (f: FilterField) => fields.includes(f);
  const [expanded, setExpanded] = useState(defaultExpanded);
  const [draft, setDraft] = useState<PanelSelection>(search.url.selection);
  const [range, setRange] = useState<[number, number] | null>(rangeOf(search));
  // The competitors as shown: the URL's pick, else the top bar's; the user may empty it (then invalid).
  const defaultSellersKey = search.defaults.sellers.join(',');
  const initialCompetitors = () =>
    search.url.selection.sellersIds.length ? search.url.selection.sellersIds : [...search.defaults.sellers];
  const [competitors, setCompetitors] = useState<number[]>(initialCompetitors);

  // The URL changed (search, clear, back/forward, a shared link): the form follows it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: urlKey stands for the URL's filters
  useEffect(() => {
    setDraft(search.url.selection);
    setRange(rangeOf(search));
  }, [search.urlKey]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the keys stand for the URL and the top bar
  useEffect(() => {
    setCompetitors(initialCompetitors());
  }, [search.urlKey, defaultSellersKey]);

  // Invalid filters from a link: open the panel so the marked fields are visible.
  useEffect(() => {
    if (search.errors.length) setExpanded(true);
  }, [search.errors]);

  const errors = errorsByControl(search.errors);
  const set = <K extends keyof PanelSelection>(key: K, value: PanelSelection[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  const license = useLicense();
  const { pivotId } = search.defaults;
  const currency = draft.currency || search.defaults.currency;

  const countryName = useMemo(() => {
    const m = new Map<string, string>();
    for (const c of license.sellersByCountries)
      m.set(c.country, `${c.country_flag} ${c.country_name}`.trim());
    return m;
  }, [license.sellersByCountries]);
  const sellerOptions = useMemo<FieldOption[]>(
    () =>
      license.sellers
        .filter((s) => s.id !== pivotId)
        .map((s) => ({ id: s.id, label: s.name, group: countryName.get(s.country) ?? s.country }))
        .sort((a, b) => (a.group ?? '').localeCompare(b.group ?? '') || a.label.localeCompare(b.label, 'es')),
    [license.sellers, pivotId, countryName],
  );

  const classifications = useQuery({
    ...licenseQueries.classificationTree(),
    enabled: show('classificationsIds'),
  });
  const classificationOptions = useMemo<FieldOption[]>(
    () =>
      flattenTree(classifications.data ?? []).map((o) => ({
        id: o.id,
        label: o.name,
        depth: o.depth,
        path: o.path,
        ancestors: o.ancestors,
      })),
    [classifications.data],
  );

  const categories = useQuery({ ...licenseQueries.categoryTree(), enabled: show('categories') });
  const categoryOptions = useMemo<FieldOption[]>(() => {
    const sellerName = new Map(license.sellers.map((s) => [s.id, s.name]));
    const roots = [...(categories.data ?? [])].sort(
      (a, b) =>
        (sellerName.get(a.seller_id) ?? '').localeCompare(sellerName.get(b.seller_id) ?? '', 'es') ||
        a.name.localeCompare(b.name, 'es'),
    );
    return flattenTree(roots, (r) => sellerName.get(r.seller_id) ?? `eCommerce ${r.seller_id}`).map((o) => ({
      id: o.id,
      label: o.name,
      depth: o.depth,
      path: `${o.group} · ${o.path}`,
      ancestors: o.ancestors,
      group: o.group,
    }));
  }, [categories.data, license.sellers]);

  const brandSellers = useMemo(
    () => (pivotId ? [pivotId, ...competitors] : [...competitors]),
    [pivotId, competitors],
  );
  const brands = useLicenseBrands(show('brands') ? brandSellers : []);
  const brandOptions = useMemo<FieldOption[]>(
    () =>
      [...(brands.data ?? [])]
        .sort((a, b) => Number(b.own) - Number(a.own) || a.name.localeCompare(b.name, 'es'))
        .map((b) => ({ id: b.id, label: b.name, badge: b.own ? 'Propia' : undefined })),
    [brands.data],
  );

  const skuCount = parseSkus(draft.SKUs).length;
  const skuTokens = draft.SKUs.split(/[\s,]+/u).filter(Boolean).length;
  const active = countActiveFilters(search.url);
  const summary = summaryOf(search, search.url.selection.currency || search.defaults.currency);
  const bodyId = idOf('body');

  const onSubmit = (e: React.FormEvent) => {
    e.preventDefault();
    if (show('sellersIds'))
      search.submit({ ...draft, sellersIds: competitors }, range, priceRange?.bounds, competitors);
    else search.submit(draft, range, priceRange?.bounds);
  };

  const onClear = () => {
    // The URL may already be empty (nothing to follow): reset the form here too.
    setDraft(EMPTY_SELECTION);
    setRange(null);
    setCompetitors([...search.defaults.sellers]);
    search.clear();
  };

  const priceTypes = draft.price_type;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={FILTER_TEXT.panelTitle}
      sx={{ borderRadius: 2 }}
    >
      <ButtonBase
        onClick={() => setExpanded((x) => !x)}
        aria-expanded={expanded}
        aria-controls={bodyId}
        aria-label={expanded ? FILTER_TEXT.hideFilters : FILTER_TEXT.showFilters}
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
      <Collapse in={expanded} timeout="auto">
        <Box
          component="form"
          id={bodyId}
          noValidate
          onSubmit={onSubmit}
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
            {show('classificationsIds') && (
              <OptionsField
                id={idOf('classifications')}
                label={FILTER_TEXT.classifications}
                tree
                options={classificationOptions}
                loading={classifications.isPending}
                value={draft.classificationsIds}
                onChange={(v) => set('classificationsIds', v)}
                error={errors.classificationsIds}
                placeholder="Todas"
              />
            )}
            {show('categories') && (
              <OptionsField
                id={idOf('categories')}
                label={FILTER_TEXT.categories}
                tree
                options={categoryOptions}
                loading={categories.isPending}
                value={draft.categories}
                onChange={(v) => set('categories', v)}
                error={errors.categories}
                placeholder="Todas"
              />
            )}
            {show('brands') && (
              <OptionsField
                id={idOf('brands')}
                label={FILTER_TEXT.brands}
                options={brandOptions}
                loading={brands.isFetching}
                value={draft.brands}
                onChange={(v) => set('brands', v)}
                error={errors.brands}
                placeholder="Todas"
              />
            )}
            {show('metaSearch') && (
              <TextField
                id={idOf('metaSearch')}
                label={FILTER_TEXT.metaSearch}
                value={draft.metaSearch}
                onChange={(e) => set('metaSearch', e.target.value)}
                placeholder={FILTER_TEXT.metaSearchPlaceholder}
                error={!!errors.metaSearch}
                helperText={errors.metaSearch}
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
            )}
            {show('sellersIds') && (
              <OptionsField
                id={idOf('sellers')}
                label={FILTER_TEXT.sellers}
                options={sellerOptions}
                loading={!license.loaded}
                value={competitors}
                onChange={setCompetitors}
                error={errors.sellersIds}
                placeholder="Elige al menos un eCommerce"
              />
            )}
            {show('SKUs') && (
              <TextField
                id={idOf('skus')}
                label={FILTER_TEXT.skus}
                value={draft.SKUs}
                onChange={(e) => set('SKUs', e.target.value)}
                placeholder={FILTER_TEXT.skusPlaceholder}
                multiline
                minRows={1}
                maxRows={4}
                error={!!errors.SKUs}
                helperText={
                  errors.SKUs ??
                  (skuTokens
                    ? `${skuCount} SKU${skuCount === 1 ? '' : 's'} válido${skuCount === 1 ? '' : 's'}${
                        skuTokens > skuCount
                          ? ` · ${skuTokens - skuCount} ignorado${skuTokens - skuCount === 1 ? '' : 's'}`
                          : ''
                      }`
                    : undefined)
                }
                slotProps={{ inputLabel: { shrink: true } }}
              />
            )}
            {show('price_type') && (
              <FormControl error={!!errors.price_type} fullWidth>
                <InputLabel id={idOf('price-type-label')} shrink>
                  {FILTER_TEXT.priceType}
                </InputLabel>
                <Select<PricingTypeOption[]>
                  labelId={idOf('price-type-label')}
                  id={idOf('price-type')}
                  multiple
                  notched
                  displayEmpty
                  label={FILTER_TEXT.priceType}
                  value={priceTypes}
                  onChange={(e) => {
                    const v = e.target.value;
                    set('price_type', (typeof v === 'string' ? v.split(',') : v) as PricingTypeOption[]);
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
                  {PRICE_TYPES.map((t) => (
                    <MenuItem key={t} value={t} dense>
                      <Checkbox size="small" checked={priceTypes.includes(t)} sx={{ p: 0.5, mr: 1 }} />
                      <ListItemText primary={PRICE_TYPE_OPTION_LABELS[t]} />
                    </MenuItem>
                  ))}
                  <ListSubheader>Condición</ListSubheader>
                  {PRICE_CONDITIONS.map((t) => (
                    <MenuItem key={t} value={t} dense>
                      <Checkbox size="small" checked={priceTypes.includes(t)} sx={{ p: 0.5, mr: 1 }} />
                      <ListItemText primary={PRICE_TYPE_OPTION_LABELS[t]} />
                    </MenuItem>
                  ))}
                </Select>
                {errors.price_type && <FormHelperText>{errors.price_type}</FormHelperText>}
              </FormControl>
            )}
            {show('mpi_range') && (
              <FormControl component="fieldset" error={!!errors.mpi_range} sx={{ minWidth: 0 }}>
                <FormLabel component="legend" sx={{ fontSize: 12, fontWeight: 600, mb: 0.5 }}>
                  {FILTER_TEXT.priceIndex}
                </FormLabel>
                <ToggleButtonGroup
                  size="small"
                  value={draft.mpi_range}
                  onChange={(_, v: MpiRange[]) => set('mpi_range', v)}
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
                {errors.mpi_range && <FormHelperText>{errors.mpi_range}</FormHelperText>}
              </FormControl>
            )}
            {show('currency') && (
              <FormControl error={!!errors.currency} fullWidth>
                <InputLabel id={idOf('currency-label')}>{FILTER_TEXT.currency}</InputLabel>
                <Select
                  labelId={idOf('currency-label')}
                  id={idOf('currency')}
                  label={FILTER_TEXT.currency}
                  value={license.currencies.some((c) => c.acronym === currency) ? currency : ''}
                  onChange={(e) =>
                    set('currency', e.target.value === search.defaults.currency ? '' : e.target.value)
                  }
                >
                  {license.currencies.map((c) => (
                    <MenuItem key={c.acronym} value={c.acronym}>
                      {c.acronym} · {c.name}
                    </MenuItem>
                  ))}
                </Select>
                {errors.currency && <FormHelperText>{errors.currency}</FormHelperText>}
              </FormControl>
            )}
            {show('priceMode') && (
              <FormControl error={!!errors.priceMode} fullWidth>
                <InputLabel id={idOf('price-mode-label')}>{FILTER_TEXT.priceMode}</InputLabel>
                <Select<PriceMode>
                  labelId={idOf('price-mode-label')}
                  id={idOf('price-mode')}
                  label={FILTER_TEXT.priceMode}
                  value={draft.priceMode || search.defaults.priceMode}
                  onChange={(e) =>
                    set(
                      'priceMode',
                      e.target.value === search.defaults.priceMode ? '' : (e.target.value as PriceMode),
                    )
                  }
                >
                  {PRICE_MODES.map((m) => (
                    <MenuItem key={m} value={m}>
                      {PRICE_MODE_LABELS[m]}
                    </MenuItem>
                  ))}
                </Select>
                {errors.priceMode && <FormHelperText>{errors.priceMode}</FormHelperText>}
              </FormControl>
            )}
            {show('dates') && (
              <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1 }}>
                <DateField
                  id={idOf('from')}
                  label={FILTER_TEXT.fromDate}
                  value={draft.from_date}
                  onChange={(v) => set('from_date', v)}
                  error={!!errors.from_date}
                  helperText={errors.from_date}
                  max={draft.to_date || undefined}
                />
                <DateField
                  id={idOf('to')}
                  label={FILTER_TEXT.toDate}
                  value={draft.to_date}
                  onChange={(v) => set('to_date', v)}
                  error={!!errors.to_date}
                  helperText={errors.to_date}
                  min={draft.from_date || undefined}
                />
              </Box>
            )}
            {show('priceRange') && priceRange && (
              <Box sx={{ gridColumn: { lg: 'span 1' } }}>
                <PriceRangeField
                  id={idOf('price-range')}
                  bounds={priceRange?.bounds}
                  pending={priceRange?.pending ?? false}
                  value={range}
                  onChange={setRange}
                  currency={currency}
                  error={errors.priceRange}
                />
              </Box>
            )}
            {show('ownBrands') && (
              <FormControlLabel
                sx={{ alignSelf: 'center' }}
                control={
                  <Switch checked={draft.ownBrands} onChange={(e) => set('ownBrands', e.target.checked)} />
                }
                label={FILTER_TEXT.ownBrands}
              />
            )}
            {children}
          </Box>
          {search.errors.length > 0 && (
            <Alert severity="error" sx={{ mt: 2 }} role="alert">
              {FILTER_TEXT.invalidSummary}
            </Alert>
          )}
          <Box
            sx={{
              display: 'flex',
              alignItems: 'center',
              gap: 1,
              mt: 2,
              flexWrap: 'wrap',
            }}
          >
            <Typography variant="caption" sx={{ color: 'text.secondary', flex: 1, minWidth: 200 }}>
              {FILTER_TEXT.shareHint}
            </Typography>
            <Button type="button" onClick={onClear} color="inherit">
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

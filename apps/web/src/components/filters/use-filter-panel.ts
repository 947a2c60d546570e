import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useId, useState } from 'react';
import type { PanelKey } from './filter-fields.js';
import { EMPTY_SELECTION, errorsByControl, type FilterControl, type PanelSelection } from './filter-url.js';
import type { FilterSearch } from './use-filter-search.js';

// The filter panel's state: the draft the user edits (it follows the URL whenever the URL changes), the
// price range, the competitors as shown, whether the panel is open, and 'Buscar' / 'Limpiar'. The
// controls (controls/*.tsx) read and write it; FilterPanel only lays them out.

/** Controls a screen can show: one per panel field, the two dates together, and the price range. */
export type FilterField = Exclude<PanelKey, 'from_date' | 'to_date'> | 'dates' | 'priceRange';

/** The price-range scores for the slider (the screen requests them). */
export interface PriceRangeBounds {
  bounds?: { min: number; max: number };
  pending: boolean;
}

export interface FilterPanelState {
  search: FilterSearch;
  /** A stable DOM id for a control's part. */
  idOf: (name: string) => string;
  show: (field: FilterField) => boolean;
  draft: PanelSelection;
  setField: <K extends PanelKey>(key: K, value: PanelSelection[K]) => void;
  /** The selected price range; null = the whole range (not sent). */
  range: [number, number] | null;
  setRange: (next: [number, number] | null) => void;
  priceRange?: PriceRangeBounds;
  /** Pasted SKUs the screen's last answer found in no product (the KPI answer's skus_not_found). */
  skusNotFound: readonly string[];
  /** The competitors as shown: the URL's pick, else the top bar's; the user may empty it (then invalid). */
  competitors: number[];
  setCompetitors: (ids: number[]) => void;
  /** The currency prices are shown in (the draft's, else the top bar's). */
  currency: string;
  errors: Partial<Record<FilterControl, string>>;
  expanded: boolean;
  toggle: () => void;
  submit: () => void;
  clear: () => void;
}

function rangeOf(search: FilterSearch): [number, number] | null {
  const r = search.url.priceRange;
  return r ? [r.minPrice, r.maxPrice] : null;
}

export function useFilterPanel(opts: {
  search: FilterSearch;
  fields: readonly FilterField[];
  priceRange?: PriceRangeBounds;
  defaultExpanded: boolean;
  skusNotFound?: readonly string[];
}): FilterPanelState {
  const { search, fields, priceRange } = opts;
  const uid = useId();
  // On a phone the panel starts closed, so that the results are on the first screen (issue 18 item 10).
  const small = useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });
  const [expanded, setExpanded] = useState(opts.defaultExpanded && !small);
  const [draft, setDraft] = useState<PanelSelection>(search.url.selection);
  const [range, setRange] = useState<[number, number] | null>(rangeOf(search));
  const defaultSellersKey = search.defaults.sellers.join(',');
  const initialCompetitors = () =>
    search.url.selection.sellersIds.length ? search.url.selection.sellersIds : [...search.defaults.sellers];
  const [competitors, setCompetitors] = useState<number[]>(initialCompetitors);

  // The URL changed (search, clear, back/forward, a shared link): the form follows it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: urlKey stands for the URL's filters
  useEffect(() => {
    setDraft(search.url.selection);
    setRange(rangeOf(search));
  }, [search.urlKey, search.url]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the keys stand for the URL and the top bar
  useEffect(() => {
    setCompetitors(initialCompetitors());
  }, [search.urlKey, search.url, defaultSellersKey]);

  // Invalid filters: open the panel so the marked fields are visible.
  useEffect(() => {
    if (search.errors.length) setExpanded(true);
  }, [search.errors]);
  // A field the user changed since the errors were found no longer shows its error ("Clasificaciones:
  // campo requerido" once one is picked; issue 31 item 12); the next search checks it again.
  const [edited, setEdited] = useState<ReadonlySet<FilterControl>>(new Set());
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new set of errors (or URL) starts afresh
  useEffect(() => setEdited(new Set()), [search.errors, search.urlKey]);
  const edit = (c: FilterControl) => setEdited((s) => (s.has(c) ? s : new Set(s).add(c)));
  const allErrors = errorsByControl(search.errors);
  const errors = Object.fromEntries(
    Object.entries(allErrors).filter(([c]) => !edited.has(c as FilterControl)),
  ) as Partial<Record<FilterControl, string>>;

  const show = (f: FilterField) => fields.includes(f);
  return {
    search,
    idOf: (name) => `${uid}-${name}`,
    show,
    draft,
    setField: (key, value) => {
      edit(key);
      setDraft((d) => ({ ...d, [key]: value }));
    },
    range,
    setRange: (r) => {
      edit('priceRange');
      setRange(r);
    },
    priceRange,
    skusNotFound: opts.skusNotFound ?? [],
    competitors,
    setCompetitors: (ids) => {
      edit('sellersIds');
      setCompetitors(ids);
    },
    currency: draft.currency || search.defaults.currency,
    errors,
    expanded,
    toggle: () => setExpanded((x) => !x),
    submit: () => {
      if (show('sellersIds'))
        search.submit({ ...draft, sellersIds: competitors }, range, priceRange?.bounds, competitors);
      else search.submit(draft, range, priceRange?.bounds);
    },
    clear: () => {
      // The URL may already be empty (nothing to follow): reset the form here too.
      setDraft(EMPTY_SELECTION);
      setRange(null);
      setCompetitors([...search.defaults.sellers]);
      search.clear();
    },
  };
}

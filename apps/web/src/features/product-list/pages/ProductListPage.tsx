import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import TablePagination from '@mui/material/TablePagination';
import {
  DEFAULT_PRODUCT_LIST_TITLE,
  MESSAGES,
  PRODUCT_LIST_PAGE_SIZE,
  type ProductListItem,
} from '@vigia/domain';
import { type ReactNode, useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState, ErrorState, type SortState } from '../../../components/data/DataTable.js';
import { useDropUnknownParams } from '../../../components/data/url-state.js';
import { PageHeader } from '../../../components/page/PageHeader.js';
import { useLicense } from '../../../lib/license.js';
import { useUserSettings } from '../../../lib/settings.js';
import { fetchProductList, type ProductListCriteria, type ProductListSort } from '../api/queries.js';
import { ListToolbar, type SellerOption } from '../components/ListToolbar.js';
import { ProductListTable } from '../components/ProductListTable.js';
import {
  criteriaToParams,
  type ListCriteria,
  listUrlChecks,
  parseCriteria,
  parsePaging,
  sellersFor,
  triToBool,
  withPaging,
} from '../criteria.js';
import { initialListState, listReducer, PAGE_SIZE_OPTIONS, pageItems } from '../pagination.js';

/** product-list — 'Lista de productos': searchable, sortable, 10 per page (seed 001 §2, §3, §4, §9). */
export default function ProductListPage() {
  const [params, setParams] = useSearchParams();
  const criteria = useMemo(() => parseCriteria(params), [params]);
  const settings = useUserSettings();
  const license = useLicense();
  // The page and page size live in the URL too: Back from a product, or a reload, lands on the same page.
  useDropUnknownParams(listUrlChecks(PAGE_SIZE_OPTIONS));
  const urlPaging = parsePaging(params, PAGE_SIZE_OPTIONS);
  const firstPage = useRef<number | null>(urlPaging.page);
  const [state, dispatch] = useReducer(listReducer<ProductListItem>, undefined, () =>
    initialListState<ProductListItem>(urlPaging.pageSize ?? PRODUCT_LIST_PAGE_SIZE),
  );
  const [listTitle, setListTitle] = useState<string>(DEFAULT_PRODUCT_LIST_TITLE);

  const apiCriteria: ProductListCriteria = useMemo(
    () => ({
      pivotId: settings.pivotId,
      currency: settings.currency,
      sellers: sellersFor(criteria.seller, settings.pivotId, settings.selectedSellers),
      search: criteria.search,
      sort: criteria.sort,
      order: criteria.order,
      match: triToBool(criteria.match),
      stockOut: triToBool(criteria.stock),
    }),
    [criteria, settings.pivotId, settings.currency, settings.selectedSellers],
  );
  const criteriaKey = JSON.stringify(apiCriteria);
  const criteriaRef = useRef(apiCriteria);
  criteriaRef.current = apiCriteria;

  // New search, sort, filter or settings: start over.
  // biome-ignore lint/correctness/useExhaustiveDependencies: criteriaKey stands for every criterion
  useEffect(() => {
    // The first load opens the URL's page; a later change of criteria starts over.
    dispatch({ type: 'reload', page: firstPage.current ?? 0 });
    firstPage.current = null;
  }, [criteriaKey]);

  // Keep the URL's page in step with the page shown (replacing the entry, so Back returns here).
  useEffect(() => {
    if (state.status !== 'ready') return;
    const next = withPaging(params, state.page, state.pageSize, PRODUCT_LIST_PAGE_SIZE);
    if (next.toString() !== params.toString()) setParams(next, { replace: true });
  }, [state.status, state.page, state.pageSize, params, setParams]);

  // Run the fetch the reducer asks for; its answer is ignored if another request replaced it.
  useEffect(() => {
    const request = state.request;
    if (!request) return;
    const controller = new AbortController();
    fetchProductList(criteriaRef.current, request, controller.signal).then(
      (page) => {
        setListTitle(page.listTitle || DEFAULT_PRODUCT_LIST_TITLE);
        dispatch({ type: 'loaded', requestId: request.id, items: page.items, totalItems: page.totalItems });
      },
      () => {
        if (!controller.signal.aborted) dispatch({ type: 'failed', requestId: request.id });
      },
    );
    return () => controller.abort();
  }, [state.request]);

  const update = useCallback(
    (patch: Partial<ListCriteria>) =>
      setParams(criteriaToParams({ ...criteria, ...patch }), { replace: true }),
    [criteria, setParams],
  );

  const sellerOptions: SellerOption[] = useMemo(() => {
    const byId = new Map(license.sellers.map((s) => [s.id, s.name]));
    const pivotName = settings.pivot?.name ?? (settings.pivotId ? byId.get(settings.pivotId) : undefined);
    return [
      { value: 'pivot', label: pivotName ? `Mi catálogo (${pivotName})` : 'Mi catálogo' },
      { value: 'all', label: 'Todos los eCommerce seleccionados' },
      ...settings.selectedSellers
        .map((id) => ({ value: id, label: byId.get(id) ?? `eCommerce ${id}` }))
        .sort((a, b) => a.label.localeCompare(b.label, 'es')),
    ];
  }, [license.sellers, settings.pivot, settings.pivotId, settings.selectedSellers]);

  const rows = pageItems(state);
  const loadingRows = state.status !== 'error' && state.status !== 'ready' && rows.length === 0;
  const sort: SortState<ProductListSort> = { by: criteria.sort, dir: criteria.order };

  let message: ReactNode = null;
  if (state.status === 'error' && state.items.length === 0) {
    message = (
      <ErrorState message={MESSAGES.productListFailed} onRetry={() => dispatch({ type: 'reload' })} />
    );
  } else if (state.status === 'ready' && state.totalItems === 0) {
    message = (
      <EmptyState
        title="No encontramos productos"
        hint={
          criteria.search || criteria.match !== 'all' || criteria.stock !== 'all'
            ? 'Prueba con otra búsqueda o quita algún filtro.'
            : 'Este eCommerce aún no tiene productos publicados. Elige otro en el filtro eCommerce.'
        }
      />
    );
  }

  return (
    <>
      <PageHeader
        title={listTitle}
        description="Todas las publicaciones de tu catálogo y de tus competidores, con su precio y disponibilidad actuales."
      />
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <Box sx={{ p: 2, borderBottom: 1, borderColor: 'divider' }}>
          <ListToolbar criteria={criteria} sellerOptions={sellerOptions} onChange={update} />
        </Box>
        <Box sx={{ position: 'relative' }}>
          {state.status === 'pending' && !loadingRows && (
            <LinearProgress
              aria-label="Cargando productos"
              sx={{ position: 'absolute', top: 0, left: 0, right: 0, height: 2, zIndex: 1 }}
            />
          )}
          <ProductListTable
            rows={rows}
            loading={loadingRows}
            skeletonRows={Math.min(state.pageSize, 10)}
            sort={sort}
            onSort={(s) => update({ sort: s.by, order: s.dir })}
            message={message}
          />
        </Box>
        <TablePagination
          component="div"
          count={state.totalItems}
          page={Math.min(state.page, Math.max(0, Math.ceil(state.totalItems / state.pageSize) - 1))}
          rowsPerPage={state.pageSize}
          rowsPerPageOptions={[...PAGE_SIZE_OPTIONS]}
          onPageChange={(_, page) => dispatch({ type: 'changePage', page })}
          onRowsPerPageChange={(e) => dispatch({ type: 'changePageSize', pageSize: Number(e.target.value) })}
          labelRowsPerPage="Productos por página"
          showFirstButton
        />
      </Paper>
    </>
  );
}

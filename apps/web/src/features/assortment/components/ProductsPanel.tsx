import CloseIcon from '@mui/icons-material/Close';
import DownloadIcon from '@mui/icons-material/Download';
import {
  Box,
  Button,
  IconButton,
  Paper,
  Stack,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  Tabs,
  Typography,
} from '@mui/material';
import {
  ASSORTMENT_STOCK_EVENTS,
  ASSORTMENT_STOCK_LABELS,
  type AssortmentProductSort,
  type AssortmentStockEvent,
  formatDate,
  formatNumber,
  formatPrice,
  MESSAGES,
} from '@vigia/domain';
import { useEffect, useRef, useState } from 'react';
import {
  EmptyState,
  NumberCell,
  ProductLink,
  ProductThumb,
  SortableHeadCell,
  type SortState,
  TableBodyState,
} from '../../../components/data/DataTable.js';
import { ScrollTable } from '../../../components/data/ScrollTable.js';
import { type AssortmentScope, useAssortmentProducts } from '../api/queries.js';
import { type AssortmentKind, type DrillDown, downloadAssortmentProducts } from '../api/requests.js';
import { ASSORTMENT_TEXT as T } from '../lib/texts.js';
import { RowName } from './cells.js';

const PAGE_SIZES = [10, 25, 50];

/**
 * The products behind a row (the seed's /products call): paged and sorted by the server, each product
 * linking to its detail page; XLSX of the whole list. The stock variant has one tab per availability change.
 */
export function ProductsPanel({
  kind,
  scope,
  title,
  drill,
  onStock,
  onClose,
  currency,
}: {
  kind: AssortmentKind;
  scope: AssortmentScope;
  title: string;
  drill: DrillDown;
  onStock: (stock: AssortmentStockEvent) => void;
  onClose: () => void;
  currency: string;
}) {
  const [sort, setSort] = useState<SortState<AssortmentProductSort>>({
    by: kind === 'stock' ? 'date' : 'name',
    dir: kind === 'stock' ? 'desc' : 'asc',
  });
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(PAGE_SIZES[0]);
  const paging = { page: page + 1, page_size: pageSize, sort_by: sort.by, sort: sort.dir };
  const q = useAssortmentProducts(kind, scope, drill, paging);
  const stock = kind === 'stock';
  const columns = stock ? 7 : 5;
  const onSort = (s: SortState<AssortmentProductSort>) => {
    setSort(s);
    setPage(0);
  };
  const dateLabel = drill.stock === 'out' ? T.outSince : T.eventDate;
  const day = (d: string | null) => (d ? formatDate(d) : '—');
  // opened from a row far above: bring the list into view
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView?.({ behavior: 'smooth', block: 'nearest' });
  }, []);

  return (
    <Paper ref={ref} variant="outlined" sx={{ p: 0 }} data-testid="assortment-products">
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', px: 2, pt: 1.5, gap: 1 }}
      >
        <Typography variant="h6" component="h2">
          {T.productsTitle(title)}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Button
            size="small"
            variant="outlined"
            startIcon={<DownloadIcon />}
            disabled={!scope.filters}
            onClick={() =>
              scope.filters &&
              void downloadAssortmentProducts(
                kind,
                scope.filters,
                drill,
                { sort_by: sort.by, sort: sort.dir },
                scope.pivotId,
              )
            }
          >
            {T.download}
          </Button>
          <IconButton aria-label={T.close} onClick={onClose} size="small">
            <CloseIcon />
          </IconButton>
        </Stack>
      </Stack>
      {stock && (
        <Tabs
          value={drill.stock ?? 'went_out'}
          onChange={(_, v: AssortmentStockEvent) => {
            setPage(0);
            onStock(v);
          }}
          sx={{ px: 2 }}
        >
          {ASSORTMENT_STOCK_EVENTS.map((e) => (
            <Tab key={e} value={e} label={ASSORTMENT_STOCK_LABELS[e]} />
          ))}
        </Tabs>
      )}
      <ScrollTable label={T.productsTitle(title)}>
        <Table size="small" aria-label={T.productsTitle(title)}>
          <TableHead>
            <TableRow>
              <SortableHeadCell column="name" label={T.product} sort={sort} onSort={onSort} firstDir="asc" />
              <SortableHeadCell column="brand" label={T.brand} sort={sort} onSort={onSort} firstDir="asc" />
              <SortableHeadCell column="seller" label={T.seller} sort={sort} onSort={onSort} firstDir="asc" />
              <SortableHeadCell column="price" label={T.price} sort={sort} onSort={onSort} align="right" />
              {stock ? (
                <>
                  <SortableHeadCell
                    column="date"
                    label={dateLabel}
                    sort={sort}
                    onSort={onSort}
                    align="right"
                  />
                  <TableCell align="right">{T.backDate}</TableCell>
                  <TableCell align="right">{T.daysOut}</TableCell>
                </>
              ) : (
                <TableCell>Disponibilidad</TableCell>
              )}
            </TableRow>
          </TableHead>
          <TableBody>
            <TableBodyState
              columns={columns}
              loading={q.isPending}
              skeletonRows={pageSize > 10 ? 10 : pageSize}
              error={q.isError && { message: T.error, onRetry: () => void q.refetch() }}
              empty={q.data?.items.length === 0 && <EmptyState title={T.productsEmpty} />}
              rows={() =>
                (q.data?.items ?? []).map((p) => (
                  <TableRow key={`${p.id}:${p.event_date ?? ''}`} hover>
                    <TableCell>
                      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
                        <ProductThumb src={p.image_url} alt={p.name ?? p.product_id} />
                        <Box>
                          <ProductLink id={p.id} name={p.name} />
                          <Typography variant="caption" color="text.secondary">
                            {p.sku ?? p.product_id}
                          </Typography>
                        </Box>
                      </Stack>
                    </TableCell>
                    <TableCell>{p.brand}</TableCell>
                    <TableCell>
                      <RowName name={p.seller_name} color={p.color} />
                    </TableCell>
                    <NumberCell>{formatPrice(p.price, q.data?.currency ?? currency)}</NumberCell>
                    {stock ? (
                      <>
                        <NumberCell>{day(p.event_date)}</NumberCell>
                        <NumberCell>{day(p.back_date)}</NumberCell>
                        <NumberCell>{p.days_out === null ? '—' : formatNumber(p.days_out)}</NumberCell>
                      </>
                    ) : (
                      <TableCell sx={{ color: p.stock_out ? 'text.disabled' : 'success.main' }}>
                        {p.stock_out ? MESSAGES.unavailableStockOut : MESSAGES.available}
                      </TableCell>
                    )}
                  </TableRow>
                ))
              }
            />
          </TableBody>
        </Table>
      </ScrollTable>
      <TablePagination
        component="div"
        count={q.data?.total ?? 0}
        page={page}
        onPageChange={(_, p) => setPage(p)}
        rowsPerPage={pageSize}
        onRowsPerPageChange={(e) => {
          setPageSize(Number(e.target.value));
          setPage(0);
        }}
        rowsPerPageOptions={PAGE_SIZES}
        labelRowsPerPage="Productos por página"
      />
    </Paper>
  );
}

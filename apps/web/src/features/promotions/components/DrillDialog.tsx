import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import {
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useInfiniteQuery } from '@tanstack/react-query';
import {
  type Filters,
  formatDate,
  formatNumber,
  formatPercent,
  formatPrice,
  priceTypeLabel,
} from '@vigia/domain';
import { useState } from 'react';
import { type CardField, CardList } from '../../../components/data/CardList.js';
import {
  ErrorState,
  LoadMoreFooter,
  NumberCell,
  ProductLink,
  TableBodyState,
} from '../../../components/data/DataTable.js';
import { ScrollTable } from '../../../components/data/ScrollTable.js';
import { usePhone } from '../../../components/page/use-phone.js';
import { type DrillTarget, downloadPromotions, drillBody, fetchPrices } from '../api/requests.js';

const PAGE = 50;
const COLUMNS = 9;

/**
 * The products behind a number of a promotions screen (/v1/promotion/prices): name (linked to its
 * detail page), seller, normal and promoted price, discount, first and last day on promotion, and the
 * days of it the number counts. Pages of 50; the whole list downloads as XLSX.
 */
export function DrillDialog({
  target,
  filters,
  pivotId,
  currency,
  onClose,
}: {
  target: DrillTarget | null;
  filters: Filters | null;
  pivotId: number | null;
  currency: string;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  // a phone gets the whole screen (issue 31 item 6: the dialog was 264 px wide, prices off-screen)
  const phone = usePhone();
  const q = useInfiniteQuery({
    queryKey: ['promotions', 'prices', target, filters, pivotId],
    queryFn: ({ pageParam, signal }) =>
      fetchPrices(
        filters as Filters,
        target as DrillTarget,
        { limit: PAGE, offset: pageParam },
        { pivotId, signal },
      ),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const shown = pages.reduce((n, p) => n + p.items.length, 0);
      return shown < last.total ? shown : undefined;
    },
    enabled: !!target && !!filters,
  });
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  const first = q.data?.pages[0];
  const save = async () => {
    if (!target || !filters) return;
    setBusy(true);
    try {
      await downloadPromotions(
        'prices',
        { ...drillBody(filters, target), drilldown: target.promotion },
        pivotId,
      );
    } catch {
      // reported in the snackbar
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={!!target}
      onClose={onClose}
      maxWidth="lg"
      fullWidth
      fullScreen={phone}
      aria-labelledby="promo-drill-title"
    >
      <DialogTitle id="promo-drill-title">
        {target?.classificationName
          ? `${target.sellerName} · ${target.classificationName}`
          : target?.sellerName}
        <Typography variant="body2" color="text.secondary">
          {target?.label}
          {target?.cell
            ? ` = ${formatNumber(target.cell.promoted)} de ${formatNumber(target.cell.published)} días-producto.`
            : ''}
        </Typography>
        {first ? (
          <Typography variant="body2" color="text.secondary" data-testid="drill-counts">
            {`Listado: ${formatNumber(first.total)} promociones de ${formatNumber(first.products)} productos, que suman ${formatNumber(first.total_days)} días-producto en promoción (${formatDate(first.from_date)} al ${formatDate(first.to_date)}).`}
          </Typography>
        ) : null}
      </DialogTitle>
      <DialogContent dividers sx={{ p: 0 }}>
        {phone ? (
          // a phone lists the promotions as cards: every field readable, the name whole (issue 31 item 6)
          <DrillCards
            items={items}
            currency={currency}
            state={q.isPending && target ? 'loading' : q.isError ? 'error' : items.length ? 'ready' : 'empty'}
            error={q.isError ? (q.error as Error).message : ''}
            onRetry={() => void q.refetch()}
          />
        ) : (
          <ScrollTable label="Productos en promoción">
            <Table size="small" aria-label="Productos en promoción">
              <TableHead>
                <TableRow>
                  <TableCell>Producto</TableCell>
                  <TableCell>eCommerce</TableCell>
                  <TableCell>Formato</TableCell>
                  <TableCell align="right">Precio normal</TableCell>
                  <TableCell align="right">Precio promoción</TableCell>
                  <TableCell align="right">Descuento</TableCell>
                  <TableCell>Primer día</TableCell>
                  <TableCell>Último día</TableCell>
                  <TableCell align="right">Días</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                <TableBodyState
                  columns={COLUMNS}
                  loading={q.isPending && !!target}
                  error={
                    q.isError && { message: (q.error as Error).message, onRetry: () => void q.refetch() }
                  }
                  empty={items.length === 0 && <Typography color="text.secondary">Sin productos.</Typography>}
                  rows={() =>
                    items.map((p) => (
                      <TableRow key={`${p.id}:${p.first_day}:${p.price_type}`} hover>
                        <TableCell>
                          <ProductLink id={p.id} name={p.name} maxWidth={320} />
                        </TableCell>
                        <TableCell>{p.seller.name}</TableCell>
                        <TableCell>{priceTypeLabel(p.price_type)}</TableCell>
                        <NumberCell>{formatPrice(p.normal_price, currency)}</NumberCell>
                        <NumberCell>{formatPrice(p.promotion_price, currency)}</NumberCell>
                        <NumberCell>{formatPercent(p.discount)}</NumberCell>
                        <TableCell>{formatDate(p.first_day)}</TableCell>
                        <TableCell>
                          {p.running ? `${formatDate(p.last_day)} (en curso)` : formatDate(p.last_day)}
                        </TableCell>
                        <NumberCell>{formatNumber(p.days)}</NumberCell>
                      </TableRow>
                    ))
                  }
                />
              </TableBody>
            </Table>
          </ScrollTable>
        )}
        {items.length > 0 && (
          <LoadMoreFooter
            shown={items.length}
            total={first?.total}
            hasMore={!!q.hasNextPage}
            loading={q.isFetchingNextPage}
            onLoadMore={() => void q.fetchNextPage()}
            noun="promociones"
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button startIcon={<FileDownloadOutlinedIcon />} onClick={save} disabled={busy || !first}>
          Descargar XLSX
        </Button>
        <Button onClick={onClose}>Cerrar</Button>
      </DialogActions>
    </Dialog>
  );
}

type DrillItem = Awaited<ReturnType<typeof fetchPrices>>['items'][number];

const DRILL_FIELDS = (currency: string): CardField<DrillItem>[] => [
  { label: 'eCommerce', value: (p) => p.seller.name },
  { label: 'Formato', value: (p) => priceTypeLabel(p.price_type) },
  { label: 'Precio normal', value: (p) => formatPrice(p.normal_price, currency) },
  { label: 'Precio promoción', value: (p) => formatPrice(p.promotion_price, currency) },
  { label: 'Descuento', value: (p) => formatPercent(p.discount) },
  { label: 'Primer día', value: (p) => formatDate(p.first_day) },
  {
    label: 'Último día',
    value: (p) => (p.running ? `${formatDate(p.last_day)} (en curso)` : formatDate(p.last_day)),
  },
  { label: 'Días', value: (p) => formatNumber(p.days) },
];

/** The drill-down's promotions as cards (a phone). */
function DrillCards({
  items,
  currency,
  state,
  error,
  onRetry,
}: {
  items: DrillItem[];
  currency: string;
  state: 'loading' | 'error' | 'empty' | 'ready';
  error: string;
  onRetry: () => void;
}) {
  if (state === 'loading')
    return (
      <Box sx={{ p: 2, display: 'grid', placeItems: 'center' }}>
        <CircularProgress aria-label="Cargando productos" />
      </Box>
    );
  if (state === 'error') return <ErrorState message={error} onRetry={onRetry} />;
  if (state === 'empty')
    return (
      <Typography color="text.secondary" sx={{ p: 2 }}>
        Sin productos.
      </Typography>
    );
  return (
    <CardList
      label="Productos en promoción"
      testId="drill-cards"
      rows={items}
      rowKey={(p) => `${p.id}:${p.first_day}:${p.price_type}`}
      title={(p) => <ProductLink id={p.id} name={p.name} wrap />}
      fields={DRILL_FIELDS(currency)}
    />
  );
}

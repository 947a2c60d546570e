import DownloadIcon from '@mui/icons-material/Download';
import {
  Box,
  Button,
  Link,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import {
  type AssortmentRow,
  type AssortmentStockEvent,
  formatNumber,
  formatPercent,
  formatPrice,
} from '@vigia/domain';
import { type ReactNode, useMemo, useState } from 'react';
import {
  EmptyState,
  NumberCell,
  SortableHeadCell,
  type SortState,
  TableBodyState,
  visuallyHidden,
} from '../../../components/data/DataTable.js';
import { ScrollTable } from '../../../components/data/ScrollTable.js';
import { useUrlSort } from '../../../components/data/url-state.js';
import type { AssortmentKind } from '../api/requests.js';
import { ASSORTMENT_SCREENS, ASSORTMENT_TEXT } from '../lib/texts.js';
import { ParticipationBar, RowName, VariationText } from './cells.js';

const C = ASSORTMENT_TEXT.columns;

const SORT_KEYS = [
  'name',
  'total_products',
  'products_variation',
  'total_value',
  'total_variation',
  'average_value',
  'average_variation',
  'participation',
  'out_of_stock',
  'availability',
  'went_out_of_stock',
  'back_in_stock',
  'previous_went_out_of_stock',
] as const satisfies readonly (keyof AssortmentRow)[];
type SortKey = (typeof SORT_KEYS)[number];
const DEFAULT_SORT: SortState<SortKey> = { by: 'total_products', dir: 'desc' };

interface Column {
  key: SortKey;
  label: ReactNode;
  cell: (r: AssortmentRow, open: (stock?: AssortmentStockEvent) => void) => ReactNode;
}

const varLabel = (
  <Box component="span" title={ASSORTMENT_TEXT.variationHelp} aria-label={ASSORTMENT_TEXT.variationHelp}>
    {C.productsVariation}
  </Box>
);

/** A count that opens the products behind it. */
function CountLink({ value, onClick, label }: { value: number; onClick: () => void; label: string }) {
  if (!value) return <>{formatNumber(0)}</>;
  return (
    <Link component="button" type="button" underline="hover" onClick={onClick} sx={{ fontWeight: 600 }}>
      {/* the name holds the visible count (axe label-content-name-mismatch on an aria-label without it) */}
      <Box component="span" sx={visuallyHidden}>{`${label}: `}</Box>
      {formatNumber(value)}
    </Link>
  );
}

function columnsOf(kind: AssortmentKind, currency: string): Column[] {
  if (kind === 'stock') {
    return [
      { key: 'total_products', label: C.products, cell: (r) => formatNumber(r.total_products) },
      {
        key: 'out_of_stock',
        label: C.outOfStock,
        cell: (r, open) => (
          <CountLink
            value={r.out_of_stock}
            onClick={() => open('out')}
            label={`${C.outOfStock}: ${r.name}`}
          />
        ),
      },
      { key: 'availability', label: C.availability, cell: (r) => formatPercent(r.availability) },
      {
        key: 'went_out_of_stock',
        label: C.wentOut,
        cell: (r, open) => (
          <CountLink
            value={r.went_out_of_stock}
            onClick={() => open('went_out')}
            label={`${C.wentOut}: ${r.name}`}
          />
        ),
      },
      {
        key: 'back_in_stock',
        label: C.backIn,
        cell: (r, open) => (
          <CountLink
            value={r.back_in_stock}
            onClick={() => open('back_in')}
            label={`${C.backIn}: ${r.name}`}
          />
        ),
      },
      {
        key: 'previous_went_out_of_stock',
        label: C.previousWentOut,
        cell: (r) => formatNumber(r.previous_went_out_of_stock),
      },
    ];
  }
  return [
    { key: 'total_products', label: C.products, cell: (r) => formatNumber(r.total_products) },
    {
      key: 'products_variation',
      label: varLabel,
      cell: (r) => <VariationText value={r.products_variation} />,
    },
    { key: 'total_value', label: C.totalValue, cell: (r) => formatPrice(r.total_value, currency) },
    {
      key: 'total_variation',
      label: varLabel,
      cell: (r) => <VariationText value={r.total_variation} />,
    },
    { key: 'average_value', label: C.averageValue, cell: (r) => formatPrice(r.average_value, currency) },
    {
      key: 'average_variation',
      label: varLabel,
      cell: (r) => <VariationText value={r.average_variation} />,
    },
    {
      key: 'participation',
      label: C.participation,
      cell: (r) => <ParticipationBar value={r.participation} />,
    },
  ];
}

function compare(a: AssortmentRow, b: AssortmentRow, s: SortState<SortKey>): number {
  const va = a[s.by] ?? null;
  const vb = b[s.by] ?? null;
  if (va === null || vb === null) return va === vb ? 0 : va === null ? 1 : -1; // nulls last
  const c = typeof va === 'string' ? va.localeCompare(String(vb), 'es') : (va as number) - (vb as number);
  return s.dir === 'asc' ? c : -c;
}

/**
 * The assortment table: the summary row ('Todas' / 'Todos') always first, then the brands or sellers,
 * sorted and paged in the browser (the answer holds them all). A row (or a stock count) opens its products.
 */
export function AssortmentTable({
  kind,
  rows,
  currency,
  loading,
  error,
  onRetry,
  onOpen,
  selected,
  onDownload,
  caption,
}: {
  kind: AssortmentKind;
  rows: AssortmentRow[] | undefined;
  currency: string;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  onOpen: (row: AssortmentRow, stock?: AssortmentStockEvent) => void;
  selected: string | null;
  onDownload: () => void;
  caption?: string;
}) {
  // the sort survives a reload and Back, like the filters (the page starts over with the table)
  const [sort, setSort] = useUrlSort<SortKey>(SORT_KEYS, DEFAULT_SORT);
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(10);
  const columns = columnsOf(kind, currency);
  const noun = ASSORTMENT_SCREENS[kind].noun;
  const summary = rows?.find((r) => r.summary);
  const body = useMemo(
    () => (rows ?? []).filter((r) => !r.summary).sort((a, b) => compare(a, b, sort)),
    [rows, sort],
  );
  const shown = body.slice(page * pageSize, page * pageSize + pageSize);
  const keyOf = (r: AssortmentRow) => (r.summary ? 'summary' : `${r.id ?? 'none'}`);
  const colSpan = columns.length + 1;

  const renderRow = (r: AssortmentRow) => {
    const open = (stock?: AssortmentStockEvent) => onOpen(r, stock);
    const isSelected = selected === keyOf(r);
    return (
      <TableRow
        key={keyOf(r)}
        hover
        selected={isSelected}
        data-testid={r.summary ? 'assortment-summary-row' : 'assortment-row'}
        sx={r.summary ? { bgcolor: 'action.hover', '& td': { fontWeight: 700 } } : undefined}
      >
        <TableCell sx={{ whiteSpace: 'nowrap' }}>
          <Link
            component="button"
            type="button"
            underline="hover"
            onClick={() => open(kind === 'stock' ? 'went_out' : undefined)}
            title={ASSORTMENT_TEXT.openProducts}
            sx={{ color: 'text.primary', textAlign: 'left' }}
          >
            <RowName
              name={r.name}
              color={r.color}
              strong={r.summary}
              chip={r.own ? (kind === 'brand' ? ASSORTMENT_TEXT.ownBrand : ASSORTMENT_TEXT.pivot) : null}
            />
          </Link>
        </TableCell>
        {columns.map((c) => (
          <NumberCell key={c.key}>{c.cell(r, open)}</NumberCell>
        ))}
      </TableRow>
    );
  };

  return (
    <Paper variant="outlined">
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          px: 2,
          pt: 1.5,
          gap: 2,
        }}
      >
        <Typography variant="body2" color="text.secondary">
          {caption}
        </Typography>
        <Button
          size="small"
          variant="outlined"
          startIcon={<DownloadIcon />}
          onClick={onDownload}
          disabled={!rows || loading}
        >
          {ASSORTMENT_TEXT.download}
        </Button>
      </Box>
      <ScrollTable label={`Surtido por ${noun}`}>
        <Table size="small" aria-label={`Surtido por ${noun}`}>
          <TableHead>
            <TableRow>
              <SortableHeadCell
                column="name"
                label={noun}
                sort={sort}
                onSort={(s) => {
                  setSort(s);
                  setPage(0);
                }}
                firstDir="asc"
              />
              {columns.map((c) => (
                <SortableHeadCell
                  key={c.key}
                  column={c.key}
                  label={c.label}
                  sort={sort}
                  onSort={(s) => {
                    setSort(s);
                    setPage(0);
                  }}
                  align="right"
                />
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            <TableBodyState
              columns={colSpan}
              loading={loading}
              error={!!error && { message: ASSORTMENT_TEXT.error, onRetry }}
              empty={
                (!summary ||
                  (summary.total_products === 0 &&
                    body.every((r) => r.total_products === 0 && r.went_out_of_stock === 0))) && (
                  <EmptyState title={ASSORTMENT_TEXT.empty} hint={ASSORTMENT_TEXT.emptyHint} />
                )
              }
              rows={() => (
                <>
                  {summary && renderRow(summary)}
                  {shown.map(renderRow)}
                </>
              )}
            />
          </TableBody>
        </Table>
      </ScrollTable>
      {!loading && !error && body.length > 0 && (
        <TablePagination
          component="div"
          count={body.length}
          page={Math.min(page, Math.max(0, Math.ceil(body.length / pageSize) - 1))}
          onPageChange={(_, p) => setPage(p)}
          rowsPerPage={pageSize}
          onRowsPerPageChange={(e) => {
            setPageSize(Number(e.target.value));
            setPage(0);
          }}
          rowsPerPageOptions={[10, 25, 50, 100]}
          labelRowsPerPage="Filas por página"
        />
      )}
    </Paper>
  );
}

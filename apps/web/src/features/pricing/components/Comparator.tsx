import CompareArrowsIcon from '@mui/icons-material/CompareArrows';
import EmojiEventsOutlinedIcon from '@mui/icons-material/EmojiEventsOutlined';
import HandshakeOutlinedIcon from '@mui/icons-material/HandshakeOutlined';
import Inventory2OutlinedIcon from '@mui/icons-material/Inventory2Outlined';
import PercentIcon from '@mui/icons-material/Percent';
import TrendingDownIcon from '@mui/icons-material/TrendingDown';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import {
  Box,
  Button,
  FormControl,
  InputLabel,
  MenuItem,
  Paper,
  Select,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { type ComparatorSummaryResponse, formatNumber, type PricingSortField } from '@vigia/domain';
import { useId } from 'react';
import {
  EmptyState,
  NumberCell,
  type SortState,
  TableBodyState,
} from '../../../components/data/DataTable.js';
import { KpiCard, KpiGrid } from '../../../components/data/KpiCard.js';
import { POSITION_COLORS, PositionFigure } from '../../../components/data/position.js';
import { ScrollTable } from '../../../components/data/ScrollTable.js';
import { MiniSplitBar, type SplitSegment } from '../../../components/data/SplitBar.js';
import { type PricingScope, useComparatorSummary, useNavigationItems } from '../api/queries.js';
import { NAVIGATION_TEXT, PRICING_TEXT } from '../lib/texts.js';
import { DifferenceText, IndexText, SellerLabel } from './cells.js';
import type { SellerColumn } from './DpmItemsTable.js';
import { NavigationTable } from './NavigationTable.js';

type SummaryRow = ComparatorSummaryResponse['items'][number];
const C = PRICING_TEXT.columns;
const PAGE_SIZE = 25;

function useOutcomeSegments() {
  return (r: SummaryRow): SplitSegment[] => [
    { key: 'win', label: NAVIGATION_TEXT.win, value: r.cheaper, color: POSITION_COLORS.cheapest },
    { key: 'tie', label: NAVIGATION_TEXT.tie, value: r.equal, color: POSITION_COLORS.tie },
    { key: 'lose', label: NAVIGATION_TEXT.lose, value: r.more_expensive, color: POSITION_COLORS.dearer },
  ];
}

/**
 * The per-e-commerce comparator: where I win and lose against each competitor, and, for the one
 * picked, my price against theirs product by product.
 */
export function Comparator({
  scope,
  sellers,
  currency,
  versusId,
  onVersus,
  sort,
  onSort,
}: {
  scope: PricingScope;
  sellers: SellerColumn[];
  currency: string;
  versusId: number | null;
  onVersus: (id: number | null) => void;
  sort: SortState<PricingSortField>;
  onSort: (next: SortState<PricingSortField>) => void;
}) {
  const selectId = useId();
  const segments = useOutcomeSegments();
  const summary = useComparatorSummary(scope);
  const versus = sellers.find((s) => s.id === versusId) ?? null;
  const items = useNavigationItems(
    scope,
    { sort: sort.dir, sort_by: sort.by, page_size: PAGE_SIZE },
    versus?.id ?? 0,
  );
  const rows = summary.data?.items ?? [];
  const row = versus ? rows.find((r) => r.seller_id === versus.id) : undefined;

  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ borderRadius: 2, p: 2 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
          <FormControl sx={{ minWidth: 260 }} size="small">
            <InputLabel id={`${selectId}-label`}>{NAVIGATION_TEXT.competitor}</InputLabel>
            <Select
              labelId={`${selectId}-label`}
              id={selectId}
              label={NAVIGATION_TEXT.competitor}
              value={versus ? String(versus.id) : ''}
              onChange={(e) => onVersus(e.target.value ? Number(e.target.value) : null)}
            >
              {sellers.map((s) => (
                <MenuItem key={s.id} value={String(s.id)}>
                  <SellerLabel name={s.name} color={s.color} />
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {versus && row
              ? NAVIGATION_TEXT.summarySentence(
                  formatNumber(row.cheaper),
                  formatNumber(row.more_expensive),
                  formatNumber(row.equal),
                  formatNumber(row.common),
                )
              : NAVIGATION_TEXT.pickCompetitor}
          </Typography>
        </Stack>
      </Paper>

      {versus && (
        <KpiGrid min={160}>
          <KpiCard
            label={C.common}
            icon={<Inventory2OutlinedIcon />}
            loading={summary.isPending}
            value={formatNumber(row?.common ?? 0)}
          />
          <KpiCard
            label={NAVIGATION_TEXT.win}
            help="Productos donde mi precio es más bajo que el suyo."
            icon={<EmojiEventsOutlinedIcon />}
            tone="cheaper"
            loading={summary.isPending}
            value={<PositionFigure kind="cheaper">{formatNumber(row?.cheaper ?? 0)}</PositionFigure>}
          />
          <KpiCard
            label={NAVIGATION_TEXT.tie}
            icon={<HandshakeOutlinedIcon />}
            tone="neutral"
            loading={summary.isPending}
            value={formatNumber(row?.equal ?? 0)}
          />
          <KpiCard
            label={NAVIGATION_TEXT.lose}
            help="Productos donde mi precio es más alto que el suyo."
            icon={<TrendingUpIcon />}
            tone="dearer"
            loading={summary.isPending}
            value={<PositionFigure kind="dearer">{formatNumber(row?.more_expensive ?? 0)}</PositionFigure>}
          />
          <KpiCard
            label={C.averageDifference}
            help="Promedio de (mi precio − su precio) / su precio en los productos en común."
            icon={<PercentIcon />}
            tone="info"
            loading={summary.isPending}
            value={<DifferenceText value={row?.average_difference_pct ?? null} />}
          />
          <KpiCard
            label={C.averageIndex}
            help="100 × mi precio / precio más bajo, en promedio."
            icon={<TrendingDownIcon />}
            tone="primary"
            loading={summary.isPending}
            value={<IndexText value={row?.average_index ?? null} />}
          />
        </KpiGrid>
      )}

      {versus && (
        <NavigationTable
          query={items}
          sellers={sellers}
          versus={versus}
          sort={sort}
          onSort={onSort}
          currency={currency}
          label={NAVIGATION_TEXT.summaryOf(versus.name)}
        />
      )}

      <Paper variant="outlined" sx={{ borderRadius: 2, overflow: 'hidden' }}>
        <Box sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700 }}>
            {NAVIGATION_TEXT.summaryTitle}
          </Typography>
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {NAVIGATION_TEXT.allCompetitors}
          </Typography>
        </Box>
        <ScrollTable label={NAVIGATION_TEXT.summaryTitle}>
          <Table size="small" aria-label={NAVIGATION_TEXT.summaryTitle}>
            <TableHead sx={{ '& th': { whiteSpace: 'nowrap' } }}>
              <TableRow>
                <TableCell>{C.seller}</TableCell>
                <TableCell align="right">{C.common}</TableCell>
                <TableCell align="right">{NAVIGATION_TEXT.win}</TableCell>
                <TableCell align="right">{NAVIGATION_TEXT.tie}</TableCell>
                <TableCell align="right">{NAVIGATION_TEXT.lose}</TableCell>
                <TableCell align="right">{C.averageDifferenceShort}</TableCell>
                <TableCell align="right">{C.averageIndexShort}</TableCell>
                <TableCell>{`${NAVIGATION_TEXT.win} / ${NAVIGATION_TEXT.tie} / ${NAVIGATION_TEXT.lose}`}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              <TableBodyState
                columns={9}
                loading={summary.isPending}
                skeletonRows={4}
                error={
                  summary.isError && { message: summary.error.message, onRetry: () => void summary.refetch() }
                }
                empty={
                  rows.length === 0 && (
                    <EmptyState title={PRICING_TEXT.empty} hint={NAVIGATION_TEXT.noCompetitors} />
                  )
                }
                rows={() =>
                  rows.map((r) => (
                    <TableRow key={r.seller_id} hover selected={r.seller_id === versus?.id}>
                      <TableCell>
                        <SellerLabel name={r.seller_name} color={r.color} />
                      </TableCell>
                      <NumberCell>{formatNumber(r.common)}</NumberCell>
                      <NumberCell>
                        <PositionFigure kind="cheaper">{formatNumber(r.cheaper)}</PositionFigure>
                      </NumberCell>
                      <NumberCell>{formatNumber(r.equal)}</NumberCell>
                      <NumberCell>
                        <PositionFigure kind="dearer">{formatNumber(r.more_expensive)}</PositionFigure>
                      </NumberCell>
                      <NumberCell>
                        <DifferenceText value={r.average_difference_pct} />
                      </NumberCell>
                      <NumberCell>
                        <IndexText value={r.average_index} />
                      </NumberCell>
                      <TableCell>
                        <MiniSplitBar segments={segments(r)} width={110} />
                      </TableCell>
                      <TableCell align="right">
                        <Button
                          size="small"
                          startIcon={<CompareArrowsIcon />}
                          onClick={() => onVersus(r.seller_id)}
                          aria-label={`Comparar con ${r.seller_name}`}
                          disabled={r.seller_id === versus?.id}
                        >
                          Comparar
                        </Button>
                      </TableCell>
                    </TableRow>
                  ))
                }
              />
            </TableBody>
          </Table>
        </ScrollTable>
      </Paper>
    </Stack>
  );
}

import { Box, Chip, Paper, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { formatPrice, type PricingItemsResponse, type PricingSortField } from '@vigia/domain';
import type { ReactNode } from 'react';
import {
  EmptyState,
  ErrorState,
  LoadMoreFooter,
  MessageRow,
  NumberCell,
  SkeletonRows,
  SortableHeadCell,
  type SortState,
  stickyFirstColumn,
} from '../../../components/data/DataTable.js';
import { RankingIcon } from '../../../components/data/RankingIcon.js';
import { ScrollTable } from '../../../components/data/ScrollTable.js';
import { outcome, rowTones } from '../lib/cell-tones.js';
import { NAVIGATION_TEXT, PRICING_TEXT } from '../lib/texts.js';
import { CompetitorCell, DifferenceText, IndexText, MyPriceCell, ProductCell, SellerLabel } from './cells.js';
import type { SellerColumn } from './DpmItemsTable.js';

const C = PRICING_TEXT.columns;

export interface NavigationTableProps {
  query: UseInfiniteQueryResult<InfiniteData<PricingItemsResponse>, Error>;
  sellers: SellerColumn[];
  sort: SortState<PricingSortField>;
  onSort: (next: SortState<PricingSortField>) => void;
  currency: string;
  /** Comparator: one competitor, with its price, the difference and the outcome instead of columns. */
  versus?: SellerColumn;
  label: string;
}

function OutcomeChip({ mine, theirs }: { mine: number | null; theirs: number | null }) {
  const o = outcome(mine, theirs);
  if (o === 'none') return <Chip size="small" variant="outlined" label={NAVIGATION_TEXT.noComparison} />;
  const map = {
    win: { label: NAVIGATION_TEXT.win, color: 'secondary' as const },
    lose: { label: NAVIGATION_TEXT.lose, color: 'error' as const },
    tie: { label: NAVIGATION_TEXT.tie, color: 'default' as const },
  };
  return <Chip size="small" label={map[o].label} color={map[o].color} sx={{ minWidth: 64 }} />;
}

/** Navigation by e-commerce: one row per pivot product, my price and each competitor's; 'Cargar más'. */
export function NavigationTable({
  query,
  sellers,
  sort,
  onSort,
  currency,
  versus,
  label,
}: NavigationTableProps) {
  const pages = query.data?.pages ?? [];
  const items = pages.flatMap((p) => p.items);
  const total = pages.at(-1)?.total ?? null;
  const competitorColumns = versus ? [] : sellers;
  const columns = versus ? 7 : 5 + competitorColumns.length;

  let body: ReactNode;
  if (query.isPending) body = <SkeletonRows rows={8} columns={columns} />;
  else if (query.isError && items.length === 0)
    body = (
      <MessageRow colSpan={columns}>
        <ErrorState message={query.error.message} onRetry={() => void query.refetch()} />
      </MessageRow>
    );
  else if (items.length === 0)
    body = (
      <MessageRow colSpan={columns}>
        <EmptyState title={PRICING_TEXT.empty} hint={PRICING_TEXT.emptyHint} />
      </MessageRow>
    );
  else
    body = items.map((item) => {
      const tones = rowTones(item);
      if (versus) {
        const theirs = tones.bySeller.get(versus.id);
        const theirPrice = theirs?.competitor.price ?? null;
        return (
          <TableRow key={item.id} hover>
            <ProductCell item={item} />
            <MyPriceCell item={item} tone={tones.my} currency={currency} />
            <CompetitorCell
              competitor={theirs?.competitor}
              tone={theirs?.tone ?? 'default'}
              currency={currency}
            />
            <NumberCell>
              {item.my_price !== null && theirPrice !== null ? (
                <Box
                  component="span"
                  sx={{ display: 'inline-flex', flexDirection: 'column', alignItems: 'flex-end' }}
                >
                  <span>{formatPrice(item.my_price - theirPrice, currency)}</span>
                  <DifferenceText value={theirs?.competitor.difference_pct ?? null} />
                </Box>
              ) : (
                <DifferenceText value={null} />
              )}
            </NumberCell>
            <NumberCell>
              <IndexText value={item.index} />
            </NumberCell>
            <TableCell align="center">
              <RankingIcon
                step={item.ranking_icon}
                detail={item.position !== null ? `${item.position}.º de ${item.ranked}` : undefined}
              />
            </TableCell>
            <TableCell align="center">
              <OutcomeChip
                mine={item.historical ? null : item.my_price}
                theirs={theirs?.competitor.historical ? null : theirPrice}
              />
            </TableCell>
          </TableRow>
        );
      }
      return (
        <TableRow key={item.id} hover>
          <ProductCell item={item} width={280} />
          <MyPriceCell item={item} tone={tones.my} currency={currency} />
          <NumberCell>
            <IndexText value={item.index} />
          </NumberCell>
          <NumberCell>
            <DifferenceText value={item.difference_pct} />
          </NumberCell>
          <TableCell align="center">
            <RankingIcon
              step={item.ranking_icon}
              detail={item.position !== null ? `${item.position}.º de ${item.ranked}` : undefined}
            />
          </TableCell>
          {competitorColumns.map((s) => {
            const c = tones.bySeller.get(s.id);
            return (
              <CompetitorCell
                key={s.id}
                competitor={c?.competitor}
                tone={c?.tone ?? 'default'}
                currency={currency}
              />
            );
          })}
        </TableRow>
      );
    });

  return (
    <Paper variant="outlined" sx={{ borderRadius: 2, overflow: 'hidden' }}>
      <ScrollTable label={label} sx={{ maxHeight: 'calc(100vh - 180px)' }}>
        <Table size="small" stickyHeader aria-label={label} sx={versus ? undefined : stickyFirstColumn}>
          <TableHead sx={{ '& th': { whiteSpace: 'nowrap' } }}>
            <TableRow>
              <SortableHeadCell column="name" firstDir="asc" label={C.product} sort={sort} onSort={onSort} />
              <SortableHeadCell column="price" label={C.myPrice} sort={sort} onSort={onSort} align="right" />
              {versus ? (
                <>
                  <TableCell align="right">
                    <SellerLabel name={versus.name} color={versus.color} />
                  </TableCell>
                  <SortableHeadCell
                    column="difference"
                    label={C.difference}
                    sort={sort}
                    onSort={onSort}
                    align="right"
                  />
                  <SortableHeadCell
                    column="index"
                    label={C.index}
                    sort={sort}
                    onSort={onSort}
                    align="right"
                  />
                  <TableCell align="center">{C.ranking}</TableCell>
                  <TableCell align="center">{NAVIGATION_TEXT.result}</TableCell>
                </>
              ) : (
                <>
                  <SortableHeadCell
                    column="index"
                    label={C.index}
                    sort={sort}
                    onSort={onSort}
                    align="right"
                  />
                  <SortableHeadCell
                    column="difference"
                    label={C.difference}
                    sort={sort}
                    onSort={onSort}
                    align="right"
                  />
                  <TableCell align="center">{C.ranking}</TableCell>
                  {competitorColumns.map((s) => (
                    <TableCell key={s.id} align="right">
                      <SellerLabel name={s.name} color={s.color} />
                    </TableCell>
                  ))}
                </>
              )}
            </TableRow>
          </TableHead>
          <TableBody>{body}</TableBody>
        </Table>
      </ScrollTable>
      {items.length > 0 && (
        <LoadMoreFooter
          shown={items.length}
          total={total}
          hasMore={!!query.hasNextPage}
          loading={query.isFetchingNextPage}
          onLoadMore={() => void query.fetchNextPage()}
        />
      )}
    </Paper>
  );
}

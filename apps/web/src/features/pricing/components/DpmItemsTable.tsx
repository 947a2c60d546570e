import {
  Box,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import { DPM_DEFAULTS, formatPrice, type PricingSortField, rememberPageCursor } from '@vigia/domain';
import { useEffect, useState } from 'react';
import {
  EmptyState,
  NumberCell,
  SortableHeadCell,
  type SortState,
  stickyFirstColumn,
  TableBodyState,
} from '../../../components/data/DataTable.js';
import { RankingIcon } from '../../../components/data/RankingIcon.js';
import { ScrollTable } from '../../../components/data/ScrollTable.js';
import type { GroupRestriction } from '../api/keys.js';
import { type PricingScope, useDpmItems } from '../api/queries.js';
import { rowTones } from '../lib/cell-tones.js';
import { PRICING_TEXT } from '../lib/texts.js';
import { CompetitorCell, DifferenceText, IndexText, MyPriceCell, ProductCell, SellerLabel } from './cells.js';

export interface SellerColumn {
  id: number;
  name: string;
  color?: string;
}

const C = PRICING_TEXT.columns;

/**
 * A DPM group's products (DPM items): my price, the lowest competitor price, difference, index, ranking
 * icon and each competitor's price. Pages of 10 (5–50) through the cursor list; sorting resets it.
 */
export function DpmItemsTable({
  restriction,
  scope,
  narrowed,
  sellers,
  currency,
  groupName,
}: {
  restriction: GroupRestriction;
  scope: PricingScope;
  narrowed?: number[];
  sellers: SellerColumn[];
  currency: string;
  groupName: string;
}) {
  const [sort, setSort] = useState<SortState<PricingSortField>>({ by: 'index', dir: DPM_DEFAULTS.sort });
  const [pageSize, setPageSize] = useState<number>(DPM_DEFAULTS.pageSize);
  const [page, setPage] = useState(0);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);

  const query = useDpmItems(
    restriction,
    scope,
    { sort: sort.dir, sort_by: sort.by, page_size: pageSize, cursor: cursors[page] },
    narrowed,
  );
  const data = query.isPlaceholderData ? undefined : query.data;

  // Remember the cursor of the next page as each page arrives (seed 001 §4: paging reuses the list).
  useEffect(() => {
    if (data) setCursors((list) => rememberPageCursor(list, page, data.next_cursor));
  }, [data, page]);

  const restart = () => {
    setPage(0);
    setCursors([undefined]);
  };
  const onSort = (next: SortState<PricingSortField>) => {
    setSort(next);
    restart();
  };

  const rows = (query.data?.items ?? []).map((item) => ({ item, tones: rowTones(item) }));
  const columns = 6 + sellers.length;
  const title = PRICING_TEXT.productsOf(groupName);

  return (
    <Box
      sx={{
        bgcolor: 'background.paper',
        borderRadius: 1.5,
        border: 1,
        borderColor: 'divider',
        overflow: 'hidden',
      }}
    >
      <ScrollTable label={title} sx={{ maxHeight: 640 }}>
        <Table size="small" stickyHeader aria-label={title} sx={stickyFirstColumn}>
          <TableHead sx={{ '& th': { whiteSpace: 'nowrap' } }}>
            <TableRow>
              <SortableHeadCell column="name" firstDir="asc" label={C.product} sort={sort} onSort={onSort} />
              <SortableHeadCell column="price" label={C.myPrice} sort={sort} onSort={onSort} align="right" />
              <TableCell align="right">{C.lowest}</TableCell>
              <SortableHeadCell
                column="difference"
                label={C.difference}
                sort={sort}
                onSort={onSort}
                align="right"
              />
              <SortableHeadCell column="index" label={C.index} sort={sort} onSort={onSort} align="right" />
              <TableCell align="center">{C.ranking}</TableCell>
              {sellers.map((s) => (
                <TableCell key={s.id} align="right">
                  <SellerLabel name={s.name} color={s.color} />
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody sx={{ opacity: query.isPlaceholderData ? 0.55 : 1, transition: 'opacity .2s' }}>
            <TableBodyState
              columns={columns}
              loading={query.isPending}
              skeletonRows={Math.min(pageSize, 5)}
              error={query.isError && { message: query.error.message, onRetry: () => void query.refetch() }}
              empty={
                rows.length === 0 && <EmptyState title={PRICING_TEXT.empty} hint={PRICING_TEXT.emptyHint} />
              }
              rows={() =>
                rows.map(({ item, tones }) => (
                  <TableRow key={item.id} hover>
                    <ProductCell item={item} width={260} />
                    <MyPriceCell item={item} tone={tones.my} currency={currency} />
                    <NumberCell>{formatPrice(item.min_price, currency)}</NumberCell>
                    <NumberCell>
                      <DifferenceText value={item.difference_pct} />
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
                    {sellers.map((s) => {
                      const c = tones.bySeller.get(s.id);
                      return (
                        <CompetitorCell
                          key={s.id}
                          competitor={c?.competitor}
                          tone={c?.tone ?? 'default'}
                          currency={currency}
                          detailed={false}
                        />
                      );
                    })}
                  </TableRow>
                ))
              }
            />
          </TableBody>
        </Table>
      </ScrollTable>
      {/* The pager sits at the left: a drill-down inside a wide table is as wide as that table, and a
          right-aligned pager would be off-screen. */}
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          flexWrap: 'wrap',
          columnGap: 2,
          pl: 2,
          borderTop: 1,
          borderColor: 'divider',
        }}
      >
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {title}
        </Typography>
        <TablePagination
          sx={{
            '& .MuiTablePagination-toolbar': { pl: 0 },
            '& .MuiTablePagination-spacer': { display: 'none' },
          }}
          component="div"
          count={query.data?.total ?? 0}
          page={query.data && page * pageSize >= (query.data.total || 1) ? 0 : page}
          rowsPerPage={pageSize}
          rowsPerPageOptions={[...DPM_DEFAULTS.pageSizeOptions]}
          labelRowsPerPage={PRICING_TEXT.rowsPerPage}
          onPageChange={(_, next) => {
            // Forward only to a page whose cursor is known; back always.
            if (next < page || cursors[next] !== undefined || next === 0) setPage(next);
          }}
          onRowsPerPageChange={(e) => {
            setPageSize(Number(e.target.value));
            restart();
          }}
          slotProps={{
            actions: {
              nextButton: { disabled: query.isFetching || cursors[page + 1] === undefined },
            },
          }}
        />
      </Box>
    </Box>
  );
}

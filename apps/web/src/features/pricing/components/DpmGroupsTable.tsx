import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ListAltIcon from '@mui/icons-material/ListAlt';
import {
  Box,
  Button,
  IconButton,
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
  DPM_DEFAULTS,
  type DpmGroup,
  type DpmGroupsResponse,
  formatNumber,
  formatPercent,
} from '@vigia/domain';
import { Fragment, type ReactNode, useMemo, useState } from 'react';
import {
  EmptyState,
  NumberCell,
  SortableHeadCell,
  type SortState,
  TableBodyState,
  visuallyHidden,
} from '../../../components/data/DataTable.js';
import { bandText, PositionFigure } from '../../../components/data/position.js';
import { ScrollTable } from '../../../components/data/ScrollTable.js';
import { MiniSplitBar, type SplitSegment } from '../../../components/data/SplitBar.js';
import { useUrlSort } from '../../../components/data/url-state.js';
import type { DpmGroupKind } from '../api/keys.js';
import type { PricingScope } from '../api/queries.js';
import { buildGroupTree, type GroupNode, narrowedClassifications } from '../lib/group-tree.js';
import { DPM_SCREENS, PRICING_TEXT } from '../lib/texts.js';
import { DifferenceText, IndexText, PHONE_NAME_WIDTH, SellerLabel } from './cells.js';
import { DpmItemsTable, type SellerColumn } from './DpmItemsTable.js';
import { splitSegments, useSplitColors } from './PricingKpis.js';

type GroupSort =
  | 'name'
  | 'products'
  | 'match'
  | 'index'
  | 'dearer'
  | 'common'
  | 'cheaper'
  | 'more'
  | 'difference';

const GROUP_SORTS: readonly GroupSort[] = [
  'name',
  'products',
  'match',
  'index',
  'dearer',
  'common',
  'cheaper',
  'more',
  'difference',
];
const DEFAULT_GROUP_SORT: SortState<GroupSort> = { by: 'products', dir: 'desc' };
const DEFAULT_SELLER_SORT: SortState<GroupSort> = { by: 'common', dir: 'desc' };

const C = PRICING_TEXT.columns;

function sortValue(g: DpmGroup, by: GroupSort): number | string {
  switch (by) {
    case 'name':
      return g.name.toLocaleLowerCase('es');
    case 'products':
      return g.products;
    case 'match':
      return g.match;
    case 'index':
      return g.average_index ?? Number.NEGATIVE_INFINITY;
    case 'dearer':
      return g.dearer;
    case 'common':
      return g.head_to_head?.common ?? 0;
    case 'cheaper':
      return g.head_to_head?.cheaper ?? 0;
    case 'more':
      return g.head_to_head?.more_expensive ?? 0;
    case 'difference':
      return g.head_to_head?.average_difference_pct ?? Number.NEGATIVE_INFINITY;
  }
}

function sortNodes(nodes: GroupNode[], sort: SortState<GroupSort>): GroupNode[] {
  const factor = sort.dir === 'asc' ? 1 : -1;
  const sorted = [...nodes].sort((a, b) => {
    const va = sortValue(a.group, sort.by);
    const vb = sortValue(b.group, sort.by);
    if (va < vb) return -factor;
    if (va > vb) return factor;
    return a.group.name.localeCompare(b.group.name, 'es');
  });
  return sorted.map((n) => ({ ...n, children: sortNodes(n.children, sort) }));
}

export interface DpmGroupsTableProps {
  group: DpmGroupKind;
  data: DpmGroupsResponse | undefined;
  loading: boolean;
  error: Error | null;
  onRetry: () => void;
  scope: PricingScope;
  currency: string;
  /** Competitor columns of the drill-down (the scope's competitors). */
  sellers: SellerColumn[];
  /** The classifications picked in the filters (to narrow a node's drill-down). */
  selectedClassifications: number[];
}

/** The table of DPM groups (brands, classifications as a tree, or competitors head-to-head). */
export function DpmGroupsTable(props: DpmGroupsTableProps) {
  const { group, data, loading, error, onRetry, scope, currency, sellers, selectedClassifications } = props;
  const colors = useSplitColors();
  const screen = DPM_SCREENS[group];
  const isSeller = group === 'seller';
  // The sort lives in the URL: it survives Back (from a product) and a reload.
  const [sort, setSort] = useUrlSort<GroupSort>(
    GROUP_SORTS,
    isSeller ? DEFAULT_SELLER_SORT : DEFAULT_GROUP_SORT,
  );
  const [pageSize, setPageSize] = useState<number>(DPM_DEFAULTS.pageSize);
  const [page, setPage] = useState(0);
  const [openChildren, setOpenChildren] = useState<Set<number>>(new Set());
  const [openProducts, setOpenProducts] = useState<Set<number>>(new Set());

  const byId = useMemo(() => new Map((data?.items ?? []).map((g) => [g.id, g])), [data]);
  const roots = useMemo(() => {
    const items = data?.items ?? [];
    const tree =
      group === 'classification'
        ? buildGroupTree(items)
        : items.map((g) => ({ group: g, children: [], depth: 0 }));
    return sortNodes(tree, sort);
  }, [data, group, sort]);
  const pageRoots = roots.slice(page * pageSize, page * pageSize + pageSize);

  const toggle = (set: Set<number>, id: number, update: (s: Set<number>) => void) => {
    const next = new Set(set);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    update(next);
  };
  const onSort = (next: SortState<GroupSort>) => {
    setSort(next);
    setPage(0);
  };

  const columns = isSeller ? 10 : 6;

  const head = isSeller ? (
    <TableRow>
      <TableCell padding="checkbox">
        <Box component="span" sx={visuallyHidden}>
          {PRICING_TEXT.detailColumn}
        </Box>
      </TableCell>
      <SortableHeadCell column="name" firstDir="asc" label={C.seller} sort={sort} onSort={onSort} />
      <SortableHeadCell column="products" label={C.products} sort={sort} onSort={onSort} align="right" />
      <SortableHeadCell column="common" label={C.common} sort={sort} onSort={onSort} align="right" />
      <SortableHeadCell column="cheaper" label={C.iWin} sort={sort} onSort={onSort} align="right" />
      <TableCell align="right">{C.tie}</TableCell>
      <SortableHeadCell column="more" label={C.iLose} sort={sort} onSort={onSort} align="right" />
      <SortableHeadCell
        column="difference"
        label={C.averageDifferenceShort}
        sort={sort}
        onSort={onSort}
        align="right"
      />
      <SortableHeadCell
        column="index"
        label={C.averageIndexShort}
        sort={sort}
        onSort={onSort}
        align="right"
      />
      <TableCell>{C.headToHead}</TableCell>
    </TableRow>
  ) : (
    <TableRow>
      <TableCell padding="checkbox">
        <Box component="span" sx={visuallyHidden}>
          {PRICING_TEXT.detailColumn}
        </Box>
      </TableCell>
      <SortableHeadCell column="name" firstDir="asc" label={screen.groupLabel} sort={sort} onSort={onSort} />
      <SortableHeadCell column="products" label={C.products} sort={sort} onSort={onSort} align="right" />
      <SortableHeadCell column="match" label={C.withMatch} sort={sort} onSort={onSort} align="right" />
      <SortableHeadCell column="index" label={C.averageIndex} sort={sort} onSort={onSort} align="right" />
      <SortableHeadCell
        column="dearer"
        label={data ? `${C.split} · ${bandText(data.mpi_value)}` : C.split}
        sort={sort}
        onSort={onSort}
      />
    </TableRow>
  );

  const outcomeSegments = (h: DpmGroup['head_to_head']): SplitSegment[] => [
    { key: 'win', label: C.iWin, value: h?.cheaper ?? 0, color: colors.cheapest },
    { key: 'tie', label: C.tie, value: h?.equal ?? 0, color: colors.tie },
    { key: 'lose', label: C.iLose, value: h?.more_expensive ?? 0, color: colors.dearer },
  ];

  const splitCell = (g: DpmGroup) => (
    <TableCell sx={{ whiteSpace: 'nowrap' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.25 }}>
        <MiniSplitBar segments={splitSegments(g, colors, data?.mpi_value)} width={110} />
        <Typography variant="caption" sx={{ color: 'text.secondary', fontVariantNumeric: 'tabular-nums' }}>
          <PositionFigure kind="cheaper" label={PRICING_TEXT.split.cheapest}>
            {formatNumber(g.cheapest)}
          </PositionFigure>
          {' · '}
          <Box component="span" sx={{ fontWeight: 600 }}>
            {formatNumber(g.in_range)}
          </Box>
          {' · '}
          <PositionFigure kind="dearer" label={PRICING_TEXT.split.dearer}>
            {formatNumber(g.dearer)}
          </PositionFigure>
        </Typography>
      </Box>
    </TableCell>
  );

  const renderNode = (node: GroupNode): ReactNode => {
    const g = node.group;
    const hasChildren = node.children.length > 0;
    const childrenOpen = openChildren.has(g.id);
    const productsOpen = openProducts.has(g.id);
    // The chevron opens sub-classifications when there are any, else the products.
    const chevronOpen = hasChildren ? childrenOpen : productsOpen;
    const onChevron = () =>
      hasChildren ? toggle(openChildren, g.id, setOpenChildren) : toggle(openProducts, g.id, setOpenProducts);
    const name = isSeller ? <SellerLabel name={g.name} color={g.color} /> : g.name;
    const h = g.head_to_head;
    return (
      <Fragment key={g.id}>
        <TableRow
          hover
          selected={chevronOpen}
          sx={{ '& > td': { borderBottom: chevronOpen ? 0 : undefined } }}
        >
          <TableCell padding="checkbox" sx={{ pl: 1 }}>
            <IconButton
              size="small"
              onClick={onChevron}
              aria-expanded={chevronOpen}
              aria-label={chevronOpen ? PRICING_TEXT.collapse(g.name) : PRICING_TEXT.expand(g.name)}
            >
              {chevronOpen ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
            </IconButton>
          </TableCell>
          {/* narrow on a phone (the name wraps) so that the figures beside it show (issue 31 item 6) */}
          <TableCell
            sx={{
              pl: { xs: `${8 + node.depth * 12}px`, sm: `${16 + node.depth * 24}px` },
              minWidth: { xs: PHONE_NAME_WIDTH, sm: 220 },
            }}
          >
            <Box
              sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: { xs: 'wrap', sm: 'nowrap' } }}
            >
              <Typography variant="body2" component="span" sx={{ fontWeight: node.depth === 0 ? 650 : 500 }}>
                {name}
              </Typography>
              {hasChildren && (
                <Button
                  size="small"
                  variant={productsOpen ? 'contained' : 'text'}
                  color="primary"
                  startIcon={<ListAltIcon sx={{ fontSize: 16 }} />}
                  onClick={() => toggle(openProducts, g.id, setOpenProducts)}
                  aria-pressed={productsOpen}
                  aria-label={`${productsOpen ? PRICING_TEXT.hideProducts : PRICING_TEXT.showProducts}: ${g.name}`}
                  sx={{ py: 0, minHeight: 24, fontSize: 12, ml: 'auto', whiteSpace: 'nowrap' }}
                >
                  {productsOpen ? PRICING_TEXT.hideProducts : PRICING_TEXT.showProducts}
                </Button>
              )}
            </Box>
          </TableCell>
          <NumberCell>{formatNumber(g.products)}</NumberCell>
          {isSeller ? (
            <>
              <NumberCell>{formatNumber(h?.common ?? 0)}</NumberCell>
              <NumberCell>
                <PositionFigure kind="cheaper">{formatNumber(h?.cheaper ?? 0)}</PositionFigure>
              </NumberCell>
              <NumberCell>{formatNumber(h?.equal ?? 0)}</NumberCell>
              <NumberCell>
                <PositionFigure kind="dearer">{formatNumber(h?.more_expensive ?? 0)}</PositionFigure>
              </NumberCell>
              <NumberCell>
                <DifferenceText value={h?.average_difference_pct ?? null} />
              </NumberCell>
            </>
          ) : (
            <NumberCell>
              {formatNumber(g.match)}
              <Typography component="span" variant="caption" sx={{ color: 'text.secondary', ml: 0.75 }}>
                {formatPercent(g.match_pct ?? 0)}
              </Typography>
            </NumberCell>
          )}
          <NumberCell>
            <IndexText value={g.average_index} />
          </NumberCell>
          {isSeller ? (
            <TableCell>
              <MiniSplitBar segments={outcomeSegments(h)} width={96} />
            </TableCell>
          ) : (
            splitCell(g)
          )}
        </TableRow>
        {productsOpen && (
          <TableRow>
            <TableCell colSpan={columns} sx={{ bgcolor: 'background.default', px: { xs: 1, md: 3 }, py: 2 }}>
              {/* width 0 / min-width 100%: the drill-down scrolls inside the row instead of widening the table */}
              <Box sx={{ width: 0, minWidth: '100%' }}>
                <DpmItemsTable
                  restriction={{ group, id: g.id }}
                  scope={scope}
                  narrowed={
                    group === 'classification'
                      ? narrowedClassifications(g, selectedClassifications, byId)
                      : undefined
                  }
                  sellers={isSeller ? [{ id: g.id, name: g.name, color: g.color }] : sellers}
                  currency={currency}
                  groupName={g.name}
                />
              </Box>
            </TableCell>
          </TableRow>
        )}
        {hasChildren && childrenOpen && node.children.map(renderNode)}
      </Fragment>
    );
  };

  return (
    <Paper variant="outlined" sx={{ borderRadius: 2, overflow: 'hidden' }}>
      <ScrollTable label={`${screen.groupLabel}: competitividad de precios`}>
        <Table size="small" aria-label={`${screen.groupLabel}: competitividad de precios`}>
          <TableHead sx={{ '& th': { whiteSpace: 'nowrap' } }}>{head}</TableHead>
          <TableBody>
            <TableBodyState
              columns={columns}
              loading={loading}
              skeletonRows={6}
              error={error && { message: error.message, onRetry: onRetry }}
              empty={
                roots.length === 0 && (
                  <EmptyState title={PRICING_TEXT.emptyGroups} hint={PRICING_TEXT.emptyHint} />
                )
              }
              rows={() => pageRoots.map(renderNode)}
            />
          </TableBody>
        </Table>
      </ScrollTable>
      {roots.length > 0 && (
        <TablePagination
          component="div"
          count={roots.length}
          page={Math.min(page, Math.max(0, Math.ceil(roots.length / pageSize) - 1))}
          rowsPerPage={pageSize}
          rowsPerPageOptions={[...DPM_DEFAULTS.pageSizeOptions]}
          labelRowsPerPage={PRICING_TEXT.rowsPerPage}
          onPageChange={(_, next) => setPage(next)}
          onRowsPerPageChange={(e) => {
            setPageSize(Number(e.target.value));
            setPage(0);
          }}
          sx={{ borderTop: 1, borderColor: 'divider' }}
        />
      )}
    </Paper>
  );
}

import {
  Alert,
  Box,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { formatDate, formatNumber, formatPercent, PROMOTION_PRODUCTS_MAX } from '@vigia/domain';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ChartContainer, LineChart, seriesColor } from '../../../components/charts/index.js';
import { InfoTip } from '../../../components/data/InfoTip.js';
import { ScrollTable } from '../../../components/data/ScrollTable.js';
import { singleQueryState, useLevel } from '../api/queries.js';
import type { DrillTarget } from '../api/requests.js';
import { PctButton } from '../components/PctButton.js';
import { SellerName, usePromotionDrill } from '../components/PromotionParts.js';
import { PromotionsFrame, windowText } from '../components/PromotionsFrame.js';
import { useDrawnInSteps } from '../lib/use-drawn-in-steps.js';
import { usePromotionSearch } from '../lib/use-promotion-search.js';

const shortDay = (iso: string) => formatDate(iso).slice(0, 5);

/** Sellers drawn with the answer; the rest follow in a transition. */
const FIRST_DRAWN = 2;

type LevelAnswer = NonNullable<ReturnType<typeof useLevel>['data']>;
type LevelItem = LevelAnswer['items'][number];
type LevelWeek = NonNullable<LevelItem['classifications'][number]['weeks']>[number];

/** A week's texts, formatted once per screen (not once per cell). */
interface WeekText {
  week: string;
  head: string;
  range: string;
}

const weekText = (w: LevelWeek): WeekText => ({
  week: w.week,
  head: `${shortDay(w.from)}–${shortDay(w.to)}`,
  range: `Semana del ${formatDate(w.from)} al ${formatDate(w.to)}`,
});

/**
 * One seller's classifications × weeks. Memoised: picking the chart's classification or opening a
 * drill-down does not draw the 1,344 cells again. Plain cells (the table's sx styles them once).
 */
const SellerWeeks = memo(function SellerWeeks({
  item: it,
  index,
  weeks,
  onOpen,
}: {
  item: LevelItem;
  index: number;
  weeks: WeekText[];
  onOpen: (target: DrillTarget) => void;
}) {
  const color = seriesColor(it.seller.color, index);
  return (
    <Paper variant="outlined" data-testid="promo-seller">
      <Box sx={{ px: 2, py: 1.5, display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
          <SellerName name={it.seller.name} color={color} size={12} />
        </Typography>
      </Box>
      <ScrollTable label={`Promociones por semana de ${it.seller.name}`}>
        <Table size="small" aria-label={`Promociones por semana de ${it.seller.name}`} sx={WEEK_TABLE}>
          <TableHead>
            <TableRow>
              <TableCell>Clasificación</TableCell>
              {weeks.map((w) => (
                <TableCell key={w.week} align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {w.head}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <tbody>
            {it.classifications.map((c) => (
              <tr key={c.id}>
                <th scope="row">{c.name}</th>
                {(c.weeks ?? []).map((w, k) => {
                  const range = weeks[k]?.range ?? '';
                  return (
                    <td key={w.week}>
                      <PctButton
                        value={w.percentage}
                        color={color}
                        spike={w.spike}
                        label={`${range}: ${formatNumber(w.promoted)} de ${formatNumber(w.published)} días-producto en promoción`}
                        onClick={() =>
                          onOpen({
                            promotion: 'level',
                            sellerId: it.seller.id,
                            sellerName: it.seller.name,
                            classification: c.id,
                            classificationName: c.name,
                            week: w.week,
                            label: `${range}: ${formatPercent(w.percentage)} de días-producto en promoción`,
                            cell: { promoted: w.promoted, published: w.published },
                          })
                        }
                      />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </Table>
      </ScrollTable>
    </Paper>
  );
});

/** The body cells of a week table, styled once here instead of by 1,344 TableCells. */
const WEEK_TABLE = {
  '& tbody th, & tbody td': {
    borderBottom: 1,
    borderColor: 'divider',
    fontSize: '0.875rem',
    lineHeight: 1.43,
  },
  '& tbody th': { textAlign: 'left', fontWeight: 400, whiteSpace: 'nowrap', px: 2, py: 0.75 },
  '& tbody td': { textAlign: 'right', p: 0.5 },
} as const;

/** What the week's percentage counts (issue 31 item 2): product-days, not products. */
export const PRODUCT_DAYS_FORMULA =
  '% de días-producto en promoción = días-producto en promoción ÷ días-producto publicados × 100. Cada producto publicado cuenta una vez por cada día de la semana (un producto publicado los 7 días suma 7); si estuvo en promoción 3 de esos días, suma 3 al numerador.';

/**
 * A promotion alert's link (issue 31 item 5): `?seller=S&products=1,2,…` with that day as the window and
 * the seller as the competitor opens the drill-down of exactly those listings' promotions once the table
 * is there.
 */
function useAlertDrill(
  p: ReturnType<typeof usePromotionSearch>,
  data: { items: { seller: { id: number; name: string } }[] } | undefined,
  open: (t: DrillTarget) => void,
) {
  const [params] = useSearchParams();
  const seller = Number(params.get('seller'));
  const raw = params.get('products') ?? '';
  const opened = useRef('');
  useEffect(() => {
    const products = [...new Set(raw.split(',').map((x) => Number(x)))]
      .filter((n: number) => Number.isInteger(n) && n > 0)
      .slice(0, PROMOTION_PRODUCTS_MAX);
    const key = `${seller}:${raw}`;
    if (!data || !p.scope.filters || !Number.isInteger(seller) || seller <= 0 || !products.length) return;
    if (opened.current === key) return;
    opened.current = key;
    const name = data.items.find((i) => i.seller.id === seller)?.seller.name ?? `eCommerce ${seller}`;
    const from = p.scope.filters.from_date;
    open({
      promotion: 'level',
      sellerId: seller,
      sellerName: name,
      classificationName: '',
      products,
      label: `Promociones del aviso: ${formatNumber(products.length)} ${products.length === 1 ? 'producto' : 'productos'}${from ? ` (${formatDate(from)})` : ''}.`,
    });
  }, [data, p.scope.filters, seller, raw, open]);
}

/**
 * Promociones por día (seed 001 §2): per seller, a row per classification and a column per week with the
 * share of listing-days on promotion; spike weeks are marked, the market's spikes listed, and a line per
 * seller shows the weeks of one classification (the first, or the one picked above the chart; sellers without
 * published listings there are left out of it). A percentage opens its products.
 */
export default function PromotionsByDayPage() {
  const p = usePromotionSearch();
  const { state, data, retry } = singleQueryState(p, useLevel(p.scope));
  const drill = usePromotionDrill(p);
  useAlertDrill(p, data, drill.open);
  const weeks = data?.items[0]?.classifications[0]?.weeks ?? [];
  const empty =
    !!data &&
    data.items.every((i) => i.classifications.every((c) => (c.weeks ?? []).every((w) => !w.published)));
  const classes = data?.items[0]?.classifications ?? [];
  const [picked, setPicked] = useState<number | null>(null);
  const chartClass = classes.find((c) => c.id === picked) ?? classes[0];
  const labels = useMemo(() => weeks.map((w) => shortDay(w.from)), [weeks]);
  const weekTexts = useMemo(() => weeks.map(weekText), [weeks]);
  // The first sellers' tables are drawn with the answer, the others right after in a transition (React
  // may paint in between): the screen's first answer shows without waiting for all 12 × 8 × 14 cells.
  const all = data?.items.length ?? 0;
  const drawn = useDrawnInSteps(all, FIRST_DRAWN);
  const chartSeries = useMemo(
    () =>
      (data?.items ?? []).flatMap((it, i) => {
        const shown = it.classifications.find((c) => c.id === chartClass?.id)?.weeks ?? [];
        if (!shown.some((w) => w.published)) return [];
        return [
          {
            id: it.seller.id,
            label: it.seller.name,
            color: seriesColor(it.seller.color, i),
            data: shown.map((w) => w.percentage),
          },
        ];
      }),
    [data, chartClass?.id],
  );

  return (
    <PromotionsFrame
      p={p}
      description="Porcentaje de días-producto en promoción de cada eCommerce, semana a semana: de los días que cada producto estuvo publicado, cuántos estuvo en promoción."
      download="level"
      state={state}
      isEmpty={empty}
      window={windowText(data)}
      onRetry={retry}
    >
      <Stack spacing={2}>
        {data?.spikes?.length ? (
          <Alert severity="warning" role="status" data-testid="promo-spikes">
            Semanas con un pico de promociones en el mercado:{' '}
            {data.spikes
              .map((s) => `semana del ${formatDate(s.week)} (${formatPercent(s.percentage)})`)
              .join(', ')}
            .
          </Alert>
        ) : null}
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, mb: 1 }}>
            <Typography variant="subtitle1" sx={{ fontWeight: 600 }} data-testid="promo-chart-title">
              {chartClass?.name}: % de días-producto en promoción por semana
            </Typography>
            <InfoTip text={PRODUCT_DAYS_FORMULA} />
            {classes.length > 1 ? (
              <TextField
                select
                size="small"
                label="Clasificación del gráfico"
                value={String(chartClass?.id ?? '')}
                onChange={(e) => setPicked(Number(e.target.value))}
                sx={{ minWidth: 220 }}
              >
                {classes.map((c) => (
                  <MenuItem key={c.id} value={String(c.id)}>
                    {c.name}
                  </MenuItem>
                ))}
              </TextField>
            ) : null}
          </Box>
          <ChartContainer status="ready" empty={!weeks.length || !chartSeries.length}>
            <LineChart
              labels={labels}
              series={chartSeries}
              formatValue={formatPercent}
              ariaLabel="Porcentaje semanal de días-producto en promoción por eCommerce"
              yMin={0}
              height={280}
            />
          </ChartContainer>
        </Paper>
        {(data?.items ?? []).slice(0, drawn).map((it, i) => (
          <SellerWeeks key={it.seller.id} item={it} index={i} weeks={weekTexts} onOpen={drill.open} />
        ))}
      </Stack>
      {drill.dialog}
    </PromotionsFrame>
  );
}

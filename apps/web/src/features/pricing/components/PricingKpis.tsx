import CreditCardOutlinedIcon from '@mui/icons-material/CreditCardOutlined';
import Inventory2OutlinedIcon from '@mui/icons-material/Inventory2Outlined';
import LinkIcon from '@mui/icons-material/Link';
import LocalOfferOutlinedIcon from '@mui/icons-material/LocalOfferOutlined';
import SellOutlinedIcon from '@mui/icons-material/SellOutlined';
import VerifiedOutlinedIcon from '@mui/icons-material/VerifiedOutlined';
import { Box, Paper, Typography } from '@mui/material';
import { formatDate, formatNumber, formatPercent, type PricingKpisResponse, share } from '@vigia/domain';
import { ErrorState } from '../../../components/data/DataTable.js';
import { KpiCard, KpiGrid } from '../../../components/data/KpiCard.js';
import { inRangeLabel, POSITION_COLORS } from '../../../components/data/position.js';
import { SplitBar, type SplitSegment } from '../../../components/data/SplitBar.js';
import { PRICING_TEXT } from '../lib/texts.js';

/** Colours of the index split, shared by the KPI bar and the tables (the colour-blind-safe position pair). */
export function useSplitColors() {
  return POSITION_COLORS;
}

export function splitSegments(
  s: { cheapest: number; in_range: number; dearer: number },
  colors: ReturnType<typeof useSplitColors>,
  mpiValue?: number,
): SplitSegment[] {
  return [
    { key: 'cheapest', label: PRICING_TEXT.split.cheapest, value: s.cheapest, color: colors.cheapest },
    { key: 'in_range', label: inRangeLabel(mpiValue), value: s.in_range, color: colors.in_range },
    { key: 'dearer', label: PRICING_TEXT.split.dearer, value: s.dearer, color: colors.dearer },
  ];
}

function pctOf(part: number, total: number): string {
  const p = share(part, total);
  return PRICING_TEXT.ofTotal(formatPercent(p ?? 0));
}

/** The pricing KPI cards (Total … Publicados con match) and the Más barato / En rango / Más caro bar. */
export function PricingKpis({
  data,
  loading,
  error,
  onRetry,
}: {
  data: PricingKpisResponse | undefined;
  loading: boolean;
  error?: Error | null;
  onRetry?: () => void;
}) {
  const colors = useSplitColors();
  if (error && !data) {
    return (
      <Paper variant="outlined" sx={{ borderRadius: 2 }}>
        <ErrorState message={error.message} onRetry={onRetry} />
      </Paper>
    );
  }
  const k = data;
  const total = k?.total ?? 0;
  const T = PRICING_TEXT.kpis;
  const H = PRICING_TEXT.kpiHelp;
  const splitTitle =
    k?.split.average_index !== null && k?.split.average_index !== undefined
      ? `${T.split} · ${PRICING_TEXT.averageIndex(formatNumber(k.split.average_index, 1))}`
      : T.split;
  return (
    <Box sx={{ display: 'grid', gap: 1.5 }}>
      {k ? (
        <Typography variant="body2" color="text.secondary" data-testid="prices-at">
          {PRICING_TEXT.pricesAt(k.prices_at ? formatDate(k.prices_at) : null)}
        </Typography>
      ) : null}
      <KpiGrid min={165}>
        <KpiCard
          label={T.total}
          help={H.total}
          icon={<Inventory2OutlinedIcon />}
          tone="primary"
          loading={loading}
          value={formatNumber(total)}
          caption={k ? `${formatNumber(k.stock_out)} sin stock` : undefined}
        />
        <KpiCard
          label={T.match}
          help={H.match}
          icon={<LinkIcon />}
          tone="secondary"
          loading={loading}
          value={formatNumber(k?.match ?? 0)}
          caption={k ? pctOf(k.match, total) : undefined}
        />
        <KpiCard
          label={T.normal}
          help={H.normal}
          icon={<SellOutlinedIcon />}
          tone="neutral"
          loading={loading}
          value={formatNumber(k?.normal ?? 0)}
          caption={k ? pctOf(k.normal, total) : undefined}
        />
        <KpiCard
          label={T.sale}
          help={H.sale}
          icon={<LocalOfferOutlinedIcon />}
          tone="warning"
          loading={loading}
          value={formatNumber(k?.sale ?? 0)}
          caption={k ? pctOf(k.sale, total) : undefined}
        />
        <KpiCard
          label={T.exclusive}
          help={H.exclusive}
          icon={<CreditCardOutlinedIcon />}
          tone="primary"
          loading={loading}
          value={formatNumber(k?.exclusive ?? 0)}
          caption={k ? pctOf(k.exclusive, total) : undefined}
        />
        <KpiCard
          label={T.publishedMatch}
          help={H.publishedMatch}
          icon={<VerifiedOutlinedIcon />}
          tone="success"
          loading={loading}
          value={formatNumber(k?.publishedMatch ?? 0)}
          caption={k ? pctOf(k.publishedMatch, total) : undefined}
        />
      </KpiGrid>
      <SplitBar
        title={splitTitle}
        loading={loading}
        segments={splitSegments(k?.split ?? { cheapest: 0, in_range: 0, dearer: 0 }, colors, k?.mpi_value)}
      />
    </Box>
  );
}

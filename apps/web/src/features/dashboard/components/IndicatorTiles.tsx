import CompareArrowsRoundedIcon from '@mui/icons-material/CompareArrowsRounded';
import LinkRoundedIcon from '@mui/icons-material/LinkRounded';
import StorefrontOutlinedIcon from '@mui/icons-material/StorefrontOutlined';
import TrendingDownRoundedIcon from '@mui/icons-material/TrendingDownRounded';
import TrendingFlatRoundedIcon from '@mui/icons-material/TrendingFlatRounded';
import TrendingUpRoundedIcon from '@mui/icons-material/TrendingUpRounded';
import UpdateRoundedIcon from '@mui/icons-material/UpdateRounded';
import ViewListOutlinedIcon from '@mui/icons-material/ViewListOutlined';
import Box from '@mui/material/Box';
import {
  DEFAULT_MPI_VALUE,
  formatDateTime,
  formatNumber,
  formatPercent,
  type GeneralPreResponse,
  share,
} from '@vigia/domain';
import { KpiCard } from '../../../components/data/KpiCard.js';
import { inRangeLabel } from '../../../components/data/position.js';

/** The share of the comparable products (domain `share`, the one definition of a share %). */
function ofComparables(part: number, total: number): string {
  const pct = share(part, total);
  return pct === null ? 'Sin productos comparables' : `${formatPercent(pct)} de los comparables`;
}

/** The indicators across the top of the dashboard (seed 001 §1). */
export function IndicatorTiles({ data, loading }: { data: GeneralPreResponse | null; loading: boolean }) {
  const busy = loading || !data;
  const comparable = data ? data.cheapest + data.in_range + data.more_expensive : 0;
  const n = (v: number | undefined) => (v === undefined ? '—' : formatNumber(v));
  return (
    <Box sx={{ display: 'grid', gap: 1.5 }}>
      <Box
        sx={{
          display: 'grid',
          gap: 1.5,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' },
        }}
      >
        <KpiCard
          label="Competidores"
          icon={<CompareArrowsRoundedIcon />}
          loading={busy}
          value={n(data?.competitors)}
          caption="eCommerce seleccionados"
          help="eCommerce con los que te comparas (se eligen en la barra superior)."
        />
        <KpiCard
          label="Productos monitoreados"
          icon={<ViewListOutlinedIcon />}
          tone="secondary"
          loading={busy}
          value={n(data?.monitored_products)}
          caption="Publicados en tu catálogo"
          help="Productos publicados de tu eCommerce (pivote)."
        />
        <KpiCard
          label="Productos con match"
          icon={<LinkRoundedIcon />}
          tone="info"
          loading={busy}
          value={n(data?.products_with_match)}
          caption={
            data && data.monitored_products > 0
              ? `${formatPercent(share(data.products_with_match, data.monitored_products) ?? 0)} de los monitoreados`
              : undefined
          }
          help="Productos monitoreados que encontramos en al menos un competidor seleccionado."
        />
        <KpiCard
          label="Última actualización"
          icon={<UpdateRoundedIcon />}
          tone="neutral"
          loading={busy}
          value={
            <Box component="span" sx={{ fontSize: 19 }}>
              {data?.last_update ? formatDateTime(data.last_update) : '—'}
            </Box>
          }
          caption="Hora de Santiago"
          help="Última observación de precios de tu eCommerce o de un competidor seleccionado."
        />
      </Box>
      <Box
        sx={{
          display: 'grid',
          gap: 1.5,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' },
        }}
      >
        <KpiCard
          label="Más baratos"
          icon={<TrendingDownRoundedIcon />}
          tone="cheaper"
          loading={busy}
          value={n(data?.cheapest)}
          caption={ofComparables(data?.cheapest ?? 0, comparable)}
          help="Productos con índice de precios ≤ 100: tu precio es el más bajo o igual al más bajo."
        />
        <KpiCard
          label={inRangeLabel(DEFAULT_MPI_VALUE)}
          icon={<TrendingFlatRoundedIcon />}
          tone="neutral"
          loading={busy}
          value={n(data?.in_range)}
          caption={ofComparables(data?.in_range ?? 0, comparable)}
          help={`Productos con índice entre 100 y ${100 + DEFAULT_MPI_VALUE}: dentro del rango de mercado.`}
        />
        <KpiCard
          label="Más caros"
          icon={<TrendingUpRoundedIcon />}
          tone="dearer"
          loading={busy}
          value={n(data?.more_expensive)}
          caption={ofComparables(data?.more_expensive ?? 0, comparable)}
          help={`Productos con índice sobre ${100 + DEFAULT_MPI_VALUE}: más caros que el mercado.`}
        />
        <KpiCard
          label="Productos comparables"
          icon={<StorefrontOutlinedIcon />}
          tone="neutral"
          loading={busy}
          value={data ? formatNumber(comparable) : '—'}
          caption="Con match y precio en ambos lados"
          help="Productos con match y precio en ambos lados: la base de Más baratos, En rango y Más caros."
        />
      </Box>
    </Box>
  );
}

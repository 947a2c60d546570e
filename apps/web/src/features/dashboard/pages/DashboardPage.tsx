import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import {
  addDays,
  DASHBOARD_DEFAULT_PERIOD_DAYS,
  type DashboardPreResponse,
  formatDate,
  isoDateInZone,
  MESSAGES,
} from '@vigia/domain';
import { useMemo } from 'react';
import { ErrorState } from '../../../components/data/DataTable.js';
import { useUrlChoice } from '../../../components/data/url-state.js';
import { PageHeader } from '../../../components/page/PageHeader.js';
import { useMarketZone } from '../../../lib/admin.js';
import { useLicense } from '../../../lib/license.js';
import { useFailureNotice } from '../../../lib/load.js';
import { useUserSettings } from '../../../lib/settings.js';
import { QuickFind } from '../../product-detail/index.js';
import { type DashboardScope, dashboardQueries, reportDashboardFailure } from '../api/queries.js';
import { CardGroups } from '../components/CardGroups.js';
import { IndicatorTiles } from '../components/IndicatorTiles.js';

/** The dashboard's failure, in place of what could not load, with a retry. */
function FailedPanel({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Paper variant="outlined">
      <ErrorState message={message} onRetry={onRetry} />
    </Paper>
  );
}

const PERIODS = [DASHBOARD_DEFAULT_PERIOD_DAYS, 30, 90] as const;

/** What the changes compare with — or why there is no comparison (monitoring began later). */
function comparisonText(d: DashboardPreResponse): string {
  if (d.comparison === 'no_data')
    return d.monitoring_since
      ? ` · sin comparación: el monitoreo comenzó el ${formatDate(d.monitoring_since)}, sin un período anterior completo`
      : ' · sin datos para comparar';
  return ` · comparado con ${formatDate(d.previous_from_date)} – ${formatDate(d.previous_to_date)}`;
}

/** dashboard — general indicators and the Surtido / Precios / Promociones card groups (seed 001 §2). */
export default function DashboardPage() {
  const settings = useUserSettings();
  const { modules } = useLicense();
  // The period lives in the URL: it survives Back and a reload.
  const [days, setDays] = useUrlChoice<number>('days', PERIODS, DASHBOARD_DEFAULT_PERIOD_DAYS);
  const scope: DashboardScope = useMemo(
    () => ({ pivotId: settings.pivotId, currency: settings.currency, sellers: settings.selectedSellers }),
    [settings.pivotId, settings.currency, settings.selectedSellers],
  );
  const zone = useMarketZone();
  const period = useMemo(() => {
    const to = isoDateInZone(new Date(), zone);
    return { from: addDays(to, -(days - 1)), to };
  }, [days, zone]);

  const indicators = useQuery(dashboardQueries.indicators(scope));
  const cards = useQuery(dashboardQueries.cards(scope, period));
  useFailureNotice(indicators, MESSAGES.dashboardFailed, reportDashboardFailure);
  useFailureNotice(cards, MESSAGES.dashboardFailed, reportDashboardFailure);
  const bothFailed = indicators.isError && cards.isError && !indicators.data && !cards.data;

  return (
    <>
      <PageHeader
        title="Dashboard"
        description={`Cómo está tu catálogo frente a ${settings.pivot?.name ? 'tus competidores' : 'la competencia'}: surtido, precios y promociones.`}
        actions={<QuickFind width={340} />}
      />
      {bothFailed ? (
        <FailedPanel
          message={MESSAGES.dashboardFailed}
          onRetry={() => {
            indicators.refetch();
            cards.refetch();
          }}
        />
      ) : (
        <Box sx={{ display: 'grid', gap: 3.5 }}>
          {indicators.isError && !indicators.data ? (
            <FailedPanel message={MESSAGES.dashboardFailed} onRetry={() => indicators.refetch()} />
          ) : (
            <IndicatorTiles data={indicators.data ?? null} loading={indicators.isPending} />
          )}
          <Box>
            <Box
              sx={{
                display: 'flex',
                alignItems: { xs: 'flex-start', sm: 'center' },
                justifyContent: 'space-between',
                flexDirection: { xs: 'column', sm: 'row' },
                gap: 1.5,
                mb: 2,
              }}
            >
              <Box>
                <Typography variant="h5" component="h2">
                  Indicadores del período
                </Typography>
                <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                  Del {formatDate(cards.data?.from_date ?? period.from)} al{' '}
                  {formatDate(cards.data?.to_date ?? period.to)}
                  {cards.data && comparisonText(cards.data)}
                </Typography>
              </Box>
              <ToggleButtonGroup
                size="small"
                exclusive
                color="primary"
                value={days}
                onChange={(_, v: number | null) => v && setDays(v)}
                aria-label="Período de los indicadores"
              >
                {PERIODS.map((d) => (
                  <ToggleButton key={d} value={d} sx={{ px: 1.5 }}>
                    {d} días
                  </ToggleButton>
                ))}
              </ToggleButtonGroup>
            </Box>
            {cards.isError && !cards.data ? (
              <FailedPanel message={MESSAGES.dashboardFailed} onRetry={() => cards.refetch()} />
            ) : (
              <CardGroups
                data={cards.data ?? null}
                loading={cards.isPending}
                currency={settings.currency}
                modules={modules}
              />
            )}
          </Box>
        </Box>
      )}
    </>
  );
}

import CampaignOutlinedIcon from '@mui/icons-material/CampaignOutlined';
import Inventory2OutlinedIcon from '@mui/icons-material/Inventory2Outlined';
import PriceCheckOutlinedIcon from '@mui/icons-material/PriceCheckOutlined';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { DASHBOARD_GROUPS, type DashboardPreResponse, type ModuleCode } from '@vigia/domain';
import type { ReactNode } from 'react';
import { CARD_META } from '../cards.js';
import { DashboardCardView } from './DashboardCardView.js';

const GROUP_ICONS: Record<(typeof DASHBOARD_GROUPS)[number]['key'], ReactNode> = {
  assortment: <Inventory2OutlinedIcon />,
  prices: <PriceCheckOutlinedIcon />,
  promotions: <CampaignOutlinedIcon />,
};

/** The three card groups (Surtido, Precios, Promociones) in the seed's order. */
export function CardGroups({
  data,
  loading,
  currency,
  modules,
}: {
  data: DashboardPreResponse | null;
  loading: boolean;
  currency: string;
  modules: readonly ModuleCode[];
}) {
  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      {DASHBOARD_GROUPS.map((group) => {
        const answered = data?.groups.find((g) => g.key === group.key);
        return (
          <Box component="section" key={group.key} aria-labelledby={`dashboard-group-${group.key}`}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1.25, color: 'primary.main' }}>
              {GROUP_ICONS[group.key]}
              <Typography
                id={`dashboard-group-${group.key}`}
                variant="h6"
                component="h2"
                sx={{ color: 'text.primary' }}
              >
                {answered?.title ?? group.title}
              </Typography>
            </Box>
            <Box
              sx={{
                display: 'grid',
                gap: 1.5,
                gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' },
              }}
            >
              {group.cards.map((key) => (
                <DashboardCardView
                  key={key}
                  cardKey={key}
                  card={answered?.cards.find((c) => c.key === key) ?? null}
                  currency={data?.currency ?? currency}
                  loading={loading}
                  allowed={modules.includes(CARD_META[key].link.module)}
                />
              ))}
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}

import AccountTreeRoundedIcon from '@mui/icons-material/AccountTreeRounded';
import ArrowForwardRoundedIcon from '@mui/icons-material/ArrowForwardRounded';
import AssessmentRoundedIcon from '@mui/icons-material/AssessmentRounded';
import AvTimerRoundedIcon from '@mui/icons-material/AvTimerRounded';
import BubbleChartRoundedIcon from '@mui/icons-material/BubbleChartRounded';
import CalendarMonthRoundedIcon from '@mui/icons-material/CalendarMonthRounded';
import CompareArrowsRoundedIcon from '@mui/icons-material/CompareArrowsRounded';
import ImageSearchRoundedIcon from '@mui/icons-material/ImageSearchRounded';
import InventoryRoundedIcon from '@mui/icons-material/InventoryRounded';
import LabelRoundedIcon from '@mui/icons-material/LabelRounded';
import LocalOfferRoundedIcon from '@mui/icons-material/LocalOfferRounded';
import SellRoundedIcon from '@mui/icons-material/SellRounded';
import StackedBarChartRoundedIcon from '@mui/icons-material/StackedBarChartRounded';
import StorefrontRoundedIcon from '@mui/icons-material/StorefrontRounded';
import TableChartRoundedIcon from '@mui/icons-material/TableChartRounded';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Chip from '@mui/material/Chip';
import { alpha } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { MESSAGES } from '@vigia/domain';
import type { ReactElement } from 'react';
import { Link as RouterLink } from 'react-router';
import { appPath, PATHS } from '../../../lib/paths.js';
import { T } from '../../../lib/texts.js';
import type { HomeCard, HomeCardGroup, HomeCardIcon } from '../home-cards.js';

const ICONS: Record<HomeCardIcon, ReactElement> = {
  brand: <SellRoundedIcon />,
  classification: <AccountTreeRoundedIcon />,
  ecommerce: <StorefrontRoundedIcon />,
  navigation: <TableChartRoundedIcon />,
  comparator: <CompareArrowsRoundedIcon />,
  reports: <AssessmentRoundedIcon />,
  calendar: <CalendarMonthRoundedIcon />,
  timer: <AvTimerRoundedIcon />,
  tag: <LocalOfferRoundedIcon />,
  range: <StackedBarChartRoundedIcon />,
  scatter: <BubbleChartRoundedIcon />,
  stock: <InventoryRoundedIcon />,
  store: <StorefrontRoundedIcon />,
  label: <LabelRoundedIcon />,
  image: <ImageSearchRoundedIcon />,
};

export const GROUP_ACCENT: Record<HomeCardGroup, string> = {
  prices: '#6a1b9a',
  promotions: '#d81b60',
  assortment: '#3949ab',
  images: '#00796b', // teal dark enough for text on white (5.3:1)
  reports: '#8e24aa',
};

/** One home card: enabled → its screen; disabled → the application root, labelled 'En construcción'. */
export function HomeCardTile({ card }: { card: HomeCard }) {
  const accent = card.enabled ? GROUP_ACCENT[card.group] : '#9e97ab';
  return (
    <Card
      sx={{
        height: '100%',
        transition: 'box-shadow .2s, transform .2s, border-color .2s',
        ...(card.enabled
          ? {
              '&:hover': {
                boxShadow: `0 10px 28px ${alpha(accent, 0.16)}`,
                transform: 'translateY(-2px)',
                borderColor: alpha(accent, 0.4),
              },
            }
          : { bgcolor: '#fbfafc' }),
      }}
    >
      <CardActionArea
        component={RouterLink}
        to={card.enabled ? appPath(card.name) : PATHS.home}
        // no aria-label: the link's name is its visible text (title, description, "En construcción")
        data-card={card.name}
        sx={{
          height: '100%',
          p: 2.5,
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'stretch',
          justifyContent: 'flex-start',
        }}
      >
        <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', mb: 2 }}>
          <Box
            sx={{
              width: 44,
              height: 44,
              borderRadius: 2.5,
              display: 'grid',
              placeItems: 'center',
              color: accent,
              bgcolor: alpha(accent, 0.1),
            }}
          >
            {ICONS[card.icon]}
          </Box>
          {!card.enabled && (
            <Chip
              size="small"
              label={MESSAGES.underConstruction}
              sx={{ bgcolor: '#efeaf5', color: '#6b6480' }}
            />
          )}
        </Box>
        <Typography
          variant="subtitle1"
          component="h3"
          sx={{ lineHeight: 1.3, color: card.enabled ? 'text.primary' : 'text.secondary' }}
        >
          {card.title}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.75, flex: 1 }}>
          {card.description}
        </Typography>
        {card.enabled && (
          <Box
            sx={{
              display: 'flex',
              alignItems: 'center',
              gap: 0.5,
              mt: 2,
              color: accent,
              fontWeight: 600,
              fontSize: 14,
            }}
          >
            {T.open}
            <ArrowForwardRoundedIcon sx={{ fontSize: 18 }} />
          </Box>
        )}
      </CardActionArea>
    </Card>
  );
}

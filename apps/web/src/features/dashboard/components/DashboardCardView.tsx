import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowForwardRoundedIcon from '@mui/icons-material/ArrowForwardRounded';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import RemoveIcon from '@mui/icons-material/Remove';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { DASHBOARD_CARD_TITLES, type DashboardCard, type DashboardCardKey } from '@vigia/domain';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { InfoTip } from '../../../components/data/InfoTip.js';
import { appPath } from '../../../lib/paths.js';
import { CARD_META, formatCardChange, formatCardValue } from '../cards.js';
import { CardDaysDialog } from './CardDaysDialog.js';

const TONE_COLOR = { good: 'success.main', bad: 'error.main', neutral: 'text.secondary' } as const;

/** One dashboard card: figure, change against the previous period, and the screen that explains it. */
export function DashboardCardView({
  cardKey,
  card,
  currency,
  loading,
  allowed,
}: {
  cardKey: DashboardCardKey;
  card: DashboardCard | null;
  currency: string;
  loading?: boolean;
  /** the license grants the module of the linked screen */
  allowed: boolean;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const meta = CARD_META[cardKey];
  const change = card ? formatCardChange(card, currency) : null;
  const title = card?.title ?? DASHBOARD_CARD_TITLES[cardKey];
  return (
    <Paper
      variant="outlined"
      component="article"
      aria-labelledby={id}
      sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 0.75, minHeight: 156, borderRadius: 2 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <Typography id={id} variant="subtitle2" component="h3" sx={{ color: 'text.secondary' }}>
          {title}
        </Typography>
        <InfoTip text={meta.help} />
      </Box>
      {loading ? (
        <>
          <Skeleton variant="text" width="55%" sx={{ fontSize: 30 }} />
          <Skeleton variant="text" width="70%" />
        </>
      ) : (
        <>
          <Typography
            component="p"
            sx={{ fontSize: 28, fontWeight: 700, lineHeight: 1.2, fontVariantNumeric: 'tabular-nums' }}
          >
            {card ? formatCardValue(card, currency) : '—'}
          </Typography>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minHeight: 20 }}>
            {change ? (
              <>
                <Box
                  component="span"
                  sx={{
                    display: 'inline-flex',
                    alignItems: 'center',
                    gap: 0.25,
                    fontWeight: 700,
                    fontSize: 13,
                    fontVariantNumeric: 'tabular-nums',
                    color: TONE_COLOR[change.tone],
                  }}
                >
                  {change.direction === 'up' && <ArrowUpwardIcon sx={{ fontSize: 14 }} aria-hidden />}
                  {change.direction === 'down' && <ArrowDownwardIcon sx={{ fontSize: 14 }} aria-hidden />}
                  {change.direction === 'none' && <RemoveIcon sx={{ fontSize: 14 }} aria-hidden />}
                  {change.text}
                </Box>
                <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                  vs. período anterior
                </Typography>
              </>
            ) : (
              <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                Sin período anterior para comparar
              </Typography>
            )}
          </Box>
        </>
      )}
      <Box sx={{ mt: 'auto', pt: 0.5, display: 'flex', flexWrap: 'wrap', columnGap: 1 }}>
        {card?.days?.length ? (
          <Button
            size="small"
            onClick={() => setOpen(true)}
            aria-label={`Ver cifra por día: ${title}`}
            sx={{ px: 0.5, ml: -0.5 }}
          >
            Ver cifra por día
          </Button>
        ) : null}
        {allowed ? (
          <Button
            component={RouterLink}
            to={appPath(meta.link.path)}
            size="small"
            endIcon={<ArrowForwardRoundedIcon />}
            sx={{ px: 0.5, ml: -0.5 }}
          >
            {meta.link.label}
          </Button>
        ) : (
          <Tooltip title="Tu licencia no incluye este módulo">
            <Typography variant="caption" sx={{ color: 'text.secondary' }} tabIndex={0}>
              {meta.link.label}
            </Typography>
          </Tooltip>
        )}
      </Box>
      <CardDaysDialog card={open ? card : null} currency={currency} onClose={() => setOpen(false)} />
    </Paper>
  );
}

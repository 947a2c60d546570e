import InsightsRoundedIcon from '@mui/icons-material/InsightsRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { formatDate } from '@vigia/domain';
import { useMemo } from 'react';
import { Link as RouterLink } from 'react-router';
import { BRAND } from '../../../lib/brand.js';
import { useLicense } from '../../../lib/license.js';
import { appPath } from '../../../lib/paths.js';
import { useSession } from '../../../lib/session.js';
import { useUserSettings } from '../../../lib/settings.js';
import { T } from '../../../lib/texts.js';
import { GROUP_ACCENT, HomeCardTile } from '../components/HomeCardTile.js';
import { HOME_GROUP_LABELS, HOME_GROUP_ORDER, visibleHomeCards } from '../home-cards.js';

/** Home: one card per module view, grouped, enabled by the license's role modules. */
export default function HomePage() {
  const { user } = useSession();
  const license = useLicense();
  const settings = useUserSettings();
  const cards = useMemo(
    () => visibleHomeCards(license.modules, settings.pivotId, license.appConfig),
    [license.modules, settings.pivotId, license.appConfig],
  );
  const groups = HOME_GROUP_ORDER.map((g) => ({
    group: g,
    cards: cards.filter((c) => c.group === g),
  })).filter((g) => g.cards.length > 0);

  return (
    <>
      <Box
        sx={{
          borderRadius: 4,
          p: { xs: 3, md: 4 },
          mb: 4,
          color: '#fff',
          background: BRAND.gradient,
          position: 'relative',
          overflow: 'hidden',
          display: 'flex',
          alignItems: { xs: 'flex-start', md: 'center' },
          justifyContent: 'space-between',
          flexDirection: { xs: 'column', md: 'row' },
          gap: 2,
        }}
      >
        <Box
          aria-hidden
          sx={{
            position: 'absolute',
            right: -60,
            top: -80,
            width: 320,
            height: 320,
            borderRadius: '50%',
            background: 'radial-gradient(circle, rgba(255,255,255,.18), rgba(255,255,255,0) 70%)',
          }}
        />
        <Box sx={{ position: 'relative' }}>
          <Typography variant="overline" sx={{ opacity: 0.8 }}>
            {formatDate(new Date(), user?.timezone)}
          </Typography>
          <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
            {T.greeting(user?.name ?? '')}
          </Typography>
          <Typography sx={{ opacity: 0.9, mt: 0.5 }}>
            {settings.pivot ? `${T.homeSubtitle} ${T.pivot}: ${settings.pivot.name}.` : T.homeSubtitle}
          </Typography>
        </Box>
        <Button
          component={RouterLink}
          to={appPath('dashboard')}
          variant="contained"
          startIcon={<InsightsRoundedIcon />}
          sx={{
            position: 'relative',
            bgcolor: '#fff',
            color: 'primary.main',
            '&:hover': { bgcolor: '#f3e5f5' },
          }}
        >
          {T.viewDashboard}
        </Button>
      </Box>

      {!license.loaded && (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))' }}>
          {['a', 'b', 'c', 'd', 'e', 'f'].map((k) => (
            <Skeleton key={k} variant="rounded" height={176} />
          ))}
        </Box>
      )}

      {license.loaded &&
        groups.map(({ group, cards: list }) => (
          <Box component="section" key={group} aria-labelledby={`home-${group}`} sx={{ mb: 4 }}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.25, mb: 1.75 }}>
              <Box sx={{ width: 4, height: 20, borderRadius: 2, bgcolor: GROUP_ACCENT[group] }} />
              <Typography id={`home-${group}`} variant="h6" component="h2">
                {HOME_GROUP_LABELS[group]}
              </Typography>
            </Box>
            <Box
              sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))' }}
            >
              {list.map((card) => (
                <HomeCardTile key={card.name} card={card} />
              ))}
            </Box>
          </Box>
        ))}
    </>
  );
}

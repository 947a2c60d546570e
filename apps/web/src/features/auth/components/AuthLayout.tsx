import CheckCircleOutlineRoundedIcon from '@mui/icons-material/CheckCircleOutlineRounded';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { APP_VERSION } from '@vigia/domain';
import type { ReactNode } from 'react';
import { ProductLogo, ProductMark } from '../../../components/shell/ProductMark.js';
import { BRAND } from '../../../lib/brand.js';
import { T } from '../../../lib/texts.js';

/** Decorative price line of the brand panel. */
function PanelChart() {
  return (
    <Box
      component="svg"
      viewBox="0 0 400 140"
      aria-hidden
      sx={{ width: '100%', maxWidth: 420, opacity: 0.9 }}
    >
      <defs>
        <linearGradient id="auth-area" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#fff" stopOpacity="0.35" />
          <stop offset="1" stopColor="#fff" stopOpacity="0" />
        </linearGradient>
      </defs>
      <path
        d="M0 110 L50 96 L100 104 L150 70 L200 82 L250 48 L300 58 L350 26 L400 34 L400 140 L0 140 Z"
        fill="url(#auth-area)"
      />
      <path
        d="M0 110 L50 96 L100 104 L150 70 L200 82 L250 48 L300 58 L350 26 L400 34"
        fill="none"
        stroke="#fff"
        strokeWidth="3"
        strokeLinejoin="round"
      />
      <path
        d="M0 120 L50 116 L100 90 L150 94 L200 100 L250 80 L300 86 L350 64 L400 70"
        fill="none"
        stroke="#ffb3cf"
        strokeWidth="2"
        strokeDasharray="6 6"
      />
      <circle cx="350" cy="26" r="6" fill="#fff" />
    </Box>
  );
}

/** Split layout of the signed-out screens: brand panel (gradient, mark, tagline, version) and the form. */
export function AuthLayout({
  title,
  subtitle,
  loading = false,
  children,
}: {
  title: string;
  subtitle?: string;
  loading?: boolean;
  children: ReactNode;
}) {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', bgcolor: 'background.default' }}>
      <Box
        component="aside"
        sx={{
          display: { xs: 'none', md: 'flex' },
          flex: '0 0 46%',
          maxWidth: 680,
          flexDirection: 'column',
          justifyContent: 'space-between',
          p: 6,
          color: '#fff',
          background: BRAND.gradient,
          position: 'relative',
          overflow: 'hidden',
        }}
      >
        <Box
          aria-hidden
          sx={{
            position: 'absolute',
            width: 520,
            height: 520,
            borderRadius: '50%',
            right: -180,
            top: -160,
            background: 'radial-gradient(circle, rgba(255,255,255,0.16), rgba(255,255,255,0) 70%)',
          }}
        />
        <ProductLogo size={40} inverted />
        <Box sx={{ position: 'relative' }}>
          <Typography
            component="p"
            sx={{
              fontSize: { md: 34, lg: 40 },
              fontWeight: 800,
              lineHeight: 1.15,
              letterSpacing: '-0.02em',
              mb: 3,
            }}
          >
            {T.tagline}
          </Typography>
          <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mb: 5, display: 'grid', gap: 1.5 }}>
            {T.brandHighlights.map((h) => (
              <Box
                component="li"
                key={h}
                sx={{ display: 'flex', alignItems: 'center', gap: 1.5, opacity: 0.92 }}
              >
                <CheckCircleOutlineRoundedIcon fontSize="small" />
                <Typography variant="body1">{h}</Typography>
              </Box>
            ))}
          </Box>
          <PanelChart />
        </Box>
        <Typography variant="caption" sx={{ opacity: 0.75 }}>
          {T.product} · {T.version(APP_VERSION)}
        </Typography>
      </Box>

      <Box component="main" sx={{ flex: 1, display: 'grid', placeItems: 'center', p: { xs: 2, sm: 4 } }}>
        <Box sx={{ width: '100%', maxWidth: 420 }}>
          <Box
            sx={{
              display: { xs: 'flex', md: 'none' },
              flexDirection: 'column',
              alignItems: 'center',
              mb: 3,
              gap: 1,
            }}
          >
            <ProductMark size={52} />
            <Typography variant="h5" component="p" sx={{ fontWeight: 800 }}>
              {T.product}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {T.tagline}
            </Typography>
          </Box>
          <Paper
            variant="outlined"
            sx={{ borderRadius: 4, overflow: 'hidden', boxShadow: '0 12px 40px rgba(74, 20, 140, 0.08)' }}
          >
            <Box sx={{ height: 4 }}>
              {loading && <LinearProgress color="secondary" aria-label={T.loading} />}
            </Box>
            <Box sx={{ p: { xs: 3, sm: 4.5 } }}>
              <Typography variant="h4" component="h1">
                {title}
              </Typography>
              {subtitle && (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 1, mb: 3 }}>
                  {subtitle}
                </Typography>
              )}
              {children}
            </Box>
          </Paper>
          <Typography
            variant="caption"
            color="text.secondary"
            component="p"
            sx={{ textAlign: 'center', mt: 3, display: { md: 'none' } }}
          >
            {T.version(APP_VERSION)}
          </Typography>
        </Box>
      </Box>
    </Box>
  );
}

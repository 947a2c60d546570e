import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useRouteMeta } from '../../lib/route-meta.js';

/**
 * The top of every analysis screen: title (the route's, unless given), one-line explanation, actions.
 * Usage: <PageHeader description="…" actions={<Button>…</Button>} />
 */
export function PageHeader({
  title,
  description,
  actions,
  overline,
}: {
  title?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  overline?: ReactNode;
}) {
  const meta = useRouteMeta();
  return (
    <Box
      component="header"
      sx={{
        display: 'flex',
        alignItems: { xs: 'flex-start', sm: 'flex-end' },
        justifyContent: 'space-between',
        flexDirection: { xs: 'column', sm: 'row' },
        gap: 2,
        mb: 3,
      }}
    >
      <Box sx={{ minWidth: 0 }}>
        {overline && (
          <Typography variant="overline" color="secondary" component="div">
            {overline}
          </Typography>
        )}
        <Typography variant="h4" component="h1">
          {title ?? meta?.title}
        </Typography>
        {description && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, maxWidth: 760 }}>
            {description}
          </Typography>
        )}
      </Box>
      {actions && <Box sx={{ display: 'flex', gap: 1, flexShrink: 0 }}>{actions}</Box>}
    </Box>
  );
}

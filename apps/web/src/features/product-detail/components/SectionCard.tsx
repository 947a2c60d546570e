import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useId } from 'react';

/** A titled block of a detail screen ('Histórico', 'Competidores'): title, subtitle, actions, body. */
export function SectionCard({
  title,
  subtitle,
  actions,
  children,
  dense,
}: {
  title: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  /** No padding around the body (tables). */
  dense?: boolean;
}) {
  const id = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ overflow: 'hidden' }}>
      <Box
        sx={{
          px: { xs: 2, md: 2.5 },
          pt: 2,
          pb: dense ? 1.5 : 0,
          display: 'flex',
          gap: 2,
          alignItems: { xs: 'flex-start', md: 'center' },
          justifyContent: 'space-between',
          flexDirection: { xs: 'column', md: 'row' },
        }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography id={id} variant="h6" component="h2">
            {title}
          </Typography>
          {subtitle && (
            <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.25 }}>
              {subtitle}
            </Typography>
          )}
        </Box>
        {actions && <Box sx={{ flexShrink: 0 }}>{actions}</Box>}
      </Box>
      <Box sx={{ p: dense ? 0 : { xs: 2, md: 2.5 } }}>{children}</Box>
    </Paper>
  );
}

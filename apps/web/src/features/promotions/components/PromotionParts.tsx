import { Box, Paper, type SxProps, Typography } from '@mui/material';
import { type ReactNode, useState } from 'react';
import type { DrillTarget } from '../api/requests.js';
import type { PromotionSearch } from '../lib/use-promotion-search.js';
import { DrillDialog } from './DrillDialog.js';

// The pieces every promotions page repeats inside PromotionsFrame: a titled card around a chart or
// table, a seller's name with its colour dot, and the drill-down dialog a percentage opens.

/** An outlined card with a title and an optional sentence saying what it shows. */
export function PromotionCard({
  title,
  description,
  testId,
  padded = false,
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  testId?: string;
  /** Padding around everything (charts); tables run to the card's edges. */
  padded?: boolean;
  children: ReactNode;
}) {
  const px = padded ? 0 : 2;
  return (
    <Paper variant="outlined" sx={padded ? { p: 2 } : undefined} data-testid={testId}>
      <Typography variant="subtitle1" sx={{ fontWeight: 600, px, pt: padded ? 0 : 1.5 }}>
        {title}
      </Typography>
      {description && (
        <Typography variant="body2" color="text.secondary" sx={{ px, pb: 1, mb: padded ? 1 : 0 }}>
          {description}
        </Typography>
      )}
      {children}
    </Paper>
  );
}

/** "Sin promociones en esta clasificación." inside a card. */
export function NoPromotions({ sx }: { sx?: SxProps }) {
  return (
    <Typography sx={sx} color="text.secondary">
      Sin promociones en esta clasificación.
    </Typography>
  );
}

/** A seller's name after a dot of its series colour (the colour the charts and buttons use). */
export function SellerName({ name, color, size = 10 }: { name: ReactNode; color: string; size?: number }) {
  return (
    <>
      <Box
        component="span"
        sx={{
          display: 'inline-block',
          width: size,
          height: size,
          borderRadius: '50%',
          bgcolor: color,
          mr: 1,
        }}
      />
      {name}
    </>
  );
}

/** The drill-down of a screen: `open` a percentage's products; `dialog` goes once in the page. */
export function usePromotionDrill(p: PromotionSearch, currency: string = p.currency) {
  const [target, setTarget] = useState<DrillTarget | null>(null);
  const dialog = (
    <DrillDialog
      target={target}
      filters={p.scope.filters}
      pivotId={p.scope.pivotId}
      currency={currency}
      onClose={() => setTarget(null)}
    />
  );
  return { open: setTarget, dialog };
}

import UpdateDisabledIcon from '@mui/icons-material/UpdateDisabled';
import { Box } from '@mui/material';
import { priceFreshness } from '@vigia/domain';

/**
 * How fresh a price is (issue 28), under the price on the analysis screens: "actualizado hace 3 h", the
 * instant of the last trusted observation in the tooltip. A price not seen today is flagged (warning
 * colour, icon and "desactualizado"): it is the last one Vigía trusted, not today's.
 */
export function PriceFreshness({ lastSeen }: { lastSeen: string | null | undefined }) {
  const f = priceFreshness(lastSeen);
  return (
    <Box
      component="span"
      data-testid="price-freshness"
      data-stale={f.stale ? 'true' : 'false'}
      title={f.title}
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.25,
        fontSize: 11,
        lineHeight: 1.3,
        whiteSpace: 'nowrap',
        color: f.stale ? 'warning.main' : 'text.secondary',
        fontWeight: f.stale ? 600 : 400,
      }}
    >
      {f.stale && <UpdateDisabledIcon sx={{ fontSize: 12 }} aria-hidden />}
      {f.stale ? `desactualizado · ${f.text}` : f.text}
    </Box>
  );
}

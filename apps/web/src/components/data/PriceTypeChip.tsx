import { Chip, type ChipProps } from '@mui/material';
import { priceTypeLabel } from '@vigia/domain';

const COLORS: Record<string, ChipProps['color']> = {
  NORMAL: 'default',
  // Pink (the accent) is kept for the cheapest price; offers read in orange.
  SALE: 'warning',
  EXCLUSIVE: 'primary',
  BYQUANTITY: 'info',
};

/** Price type as a small chip with the seed's label (Normal / Oferta / Oferta exclusiva / Por cantidad). */
export function PriceTypeChip({
  type,
  size = 'small',
}: {
  type: string | null | undefined;
  size?: ChipProps['size'];
}) {
  const color = COLORS[type ?? ''] ?? 'default';
  return (
    <Chip
      label={priceTypeLabel(type)}
      size={size}
      color={color}
      variant={color === 'default' ? 'outlined' : 'filled'}
      sx={{ height: 20, fontSize: 11, fontWeight: 600, '& .MuiChip-label': { px: 0.75 } }}
    />
  );
}

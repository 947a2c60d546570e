import { styled } from '@mui/material/styles';
import { formatPercent } from '@vigia/domain';
import type { ReactNode } from 'react';
import { withAlpha } from '../../../components/charts/index.js';
import { visuallyHidden } from '../../../components/data/DataTable.js';

// A promotions table draws up to 12 sellers × 8 classifications × 14 weeks of these (1,344 on
// Promociones por día): each was a Tooltip around a ButtonBase around a Box with its own sx, and drawing
// them took most of the screen's 1.1–1.8 s (issue 31 item 11). Now one styled element with two static
// classes; the cell's shade is an inline style; the hover text is the native title (the same words are
// the button's accessible name, and the drill-down it opens repeats them).

const Figure = styled('span')(({ theme }) => ({
  display: 'inline-block',
  padding: theme.spacing(0.5, 1),
  borderRadius: theme.shape.borderRadius,
  minWidth: 64,
  textAlign: 'right',
  color: theme.palette.text.primary,
  fontVariantNumeric: 'tabular-nums',
  whiteSpace: 'nowrap',
  font: 'inherit',
  '&.spike': { outline: `2px solid ${theme.palette.secondary.main}` },
  '& .sub': { display: 'block', fontSize: 11, opacity: 0.85 },
  '& .up': { display: 'inline-block', marginRight: 4, fontSize: 12, verticalAlign: 'middle' },
}));

const Press = styled('button')(({ theme }) => ({
  border: 0,
  margin: 0,
  padding: 0,
  background: 'none',
  cursor: 'pointer',
  borderRadius: theme.shape.borderRadius,
  font: 'inherit',
  '&:hover > span': { filter: 'brightness(0.95)', textDecoration: 'underline' },
  '&:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 1 },
}));

/**
 * A percentage that opens the products behind it; shaded with the seller's colour by its value, and
 * marked when it is a spike.
 */
export function PctButton({
  value,
  color,
  onClick,
  spike = false,
  label,
  sub,
}: {
  value: number | null;
  color: string;
  onClick?: () => void;
  spike?: boolean;
  label: string;
  sub?: ReactNode;
}) {
  // capped so the dark figures stay readable on every seller colour (white on a light orange was not)
  const shade = value === null ? 0 : Math.min(0.45, 0.08 + value / 100);
  const content = (
    <Figure
      className={spike ? 'spike' : undefined}
      style={value === null ? undefined : { backgroundColor: withAlpha(color, shade) }}
    >
      {spike && (
        <span className="up" aria-hidden>
          ↗
        </span>
      )}
      {formatPercent(value)}
      {sub && <span className="sub">{sub}</span>}
    </Figure>
  );
  if (!onClick || value === null || value === 0) return content;
  // The name is what the figure counts (visually hidden), then the visible figures as they read: it
  // holds the visible text (axe label-content-name-mismatch flagged an aria-label without the price
  // shown under the percentage).
  return (
    <Press type="button" onClick={onClick} title={spike ? `${label} · pico de promociones` : label}>
      <span style={visuallyHidden}>{`${label}: `}</span>
      {content}
      {spike && <span style={visuallyHidden}>, pico</span>}
    </Press>
  );
}

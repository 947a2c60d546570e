// Colours of chart series that carry none of their own (sellers carry theirs). Purple/pink first, then
// hues far enough apart to tell eight series apart.
export const SERIES_PALETTE = [
  '#7B1FA2',
  '#E91E63',
  '#3949AB',
  '#00897B',
  '#F4511E',
  '#6D4C41',
  '#C0CA33',
  '#546E7A',
] as const;

/** Series colour: the item's own colour when valid, else the palette's colour at that index. */
export function seriesColor(color: string | null | undefined, index: number): string {
  if (color && /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(color)) return color;
  return SERIES_PALETTE[index % SERIES_PALETTE.length];
}

/** `#rrggbb` (or `#rgb`) with an alpha, as rgba(). Anything else is returned unchanged. */
export function withAlpha(color: string, alpha: number): string {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color);
  if (!m) return color;
  const hex =
    m[1].length === 3
      ? m[1]
          .split('')
          .map((c) => c + c)
          .join('')
      : m[1];
  const n = Number.parseInt(hex, 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/**
 * A diagonal hatch of `color` on a light tint of it, as a canvas pattern: a series told apart by its
 * texture as well as its hue (issue 31 item 10: never colour alone). Falls back to the plain colour where
 * there is no canvas (tests, server).
 */
export function hatchPattern(color: string): CanvasPattern | string {
  if (typeof document === 'undefined') return color;
  const cached = hatches.get(color);
  if (cached) return cached;
  const size = 8;
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  const ctx = canvas.getContext('2d');
  if (!ctx) return color;
  ctx.fillStyle = withAlpha(color, 0.35);
  ctx.fillRect(0, 0, size, size);
  ctx.strokeStyle = color;
  ctx.lineWidth = 2.5;
  ctx.beginPath();
  // one stroke corner to corner and the two halves that tile it
  ctx.moveTo(0, size);
  ctx.lineTo(size, 0);
  ctx.moveTo(-size / 2, size / 2);
  ctx.lineTo(size / 2, -size / 2);
  ctx.moveTo(size / 2, size * 1.5);
  ctx.lineTo(size * 1.5, size / 2);
  ctx.stroke();
  const pattern = ctx.createPattern(canvas, 'repeat');
  if (!pattern) return color;
  hatches.set(color, pattern);
  return pattern;
}
const hatches = new Map<string, CanvasPattern>();

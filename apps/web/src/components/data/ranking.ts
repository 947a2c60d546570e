import { RANKING_LABELS, RANKING_STEPS } from '@vigia/domain';

// Tooltip texts of the 1–9 ranking icon (the icon itself is computed by the server with the domain's
// rankingIcon(); PRODUCT.md "ranking position").

export function clampStep(step: number): number {
  if (!Number.isFinite(step)) return 1;
  return Math.max(1, Math.min(RANKING_STEPS, Math.round(step)));
}

/** Tooltip of a step: the seed's 'Más bajo' / 'Más alto' at the ends, the place on the scale between. */
export function rankingLabel(step: number): string {
  const s = clampStep(step);
  if (s === 1) return RANKING_LABELS.low;
  if (s === RANKING_STEPS) return RANKING_LABELS.high;
  return `Posición ${s} de ${RANKING_STEPS}, entre ${RANKING_LABELS.low.toLowerCase()} y ${RANKING_LABELS.high.toLowerCase()}`;
}

/**
 * Price position colours (cheaper / in range / dearer): the Okabe–Ito blue and vermillion, told apart with
 * every common colour-vision deficiency, never the brand pink against red. `text` shades reach 4.5:1 on
 * white for figures; the meaning is always repeated by a sign, an arrow or a label (see
 * position.tsx). The theme (app/theme.ts) builds its cheaper/dearer palette from these.
 */
export const POSITION = {
  cheaper: { main: '#0072B2', text: '#005A8C', tint: 'rgba(0, 114, 178, 0.12)' },
  inRange: { main: '#C9C1D6', text: '#5f5673' },
  dearer: { main: '#D55E00', text: '#A63F00', tint: 'rgba(213, 94, 0, 0.12)' },
  tie: { main: '#E4DFEC' },
} as const;

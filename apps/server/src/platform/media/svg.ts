// Deterministic product pictures for the demo market (and any listing without a real image): an SVG
// drawn from the image key alone, so the same key always gives the same bytes.
//
// Key: <icon>-<LABEL>-<code>[-<variant>], e.g. "fridge-POLARIX-7801234000017" (the demo generator writes
// /media/products/<key>.svg into products.image_url). The icon picks the drawing, the code the colours,
// LABEL is printed on it. Variants model seller images that differ from the brand's reference image
// (image verification): "c" = cropped/zoomed and tilted (similar: for review), "x" = other colours,
// mirrored (different: incorrect). /media/reference/<key>.svg draws the key without variant, i.e.
// exactly the picture a correct seller image has.

export const MEDIA_KEY = /^[a-z]{2,12}-[A-Z0-9]{1,12}-[A-Za-z0-9]{1,24}(-[a-z])?$/;

export interface ParsedKey {
  icon: string;
  label: string;
  code: string;
  variant: string | null;
}

export function parseMediaKey(key: string): ParsedKey | null {
  if (!MEDIA_KEY.test(key)) return null;
  const [icon, label, code, variant] = key.split('-');
  return { icon, label, code, variant: variant ?? null };
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

const hsl = (h: number, s: number, l: number) => `hsl(${Math.round(h) % 360} ${s}% ${l}%)`;

interface Colours {
  main: string;
  dark: string;
  light: string;
  bg1: string;
  bg2: string;
  accent: string;
}

function colours(code: string, shift: number): Colours {
  const hue = (hash(code) % 360) + shift;
  return {
    main: hsl(hue, 62, 48),
    dark: hsl(hue, 55, 28),
    light: hsl(hue, 70, 86),
    bg1: hsl(hue + 30, 40, 97),
    bg2: hsl(hue + 30, 45, 90),
    accent: hsl(hue + 180, 65, 55),
  };
}

type Drawing = (c: Colours) => string;

const rect = (x: number, y: number, w: number, h: number, fill: string, rx = 8, extra = '') =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${rx}" fill="${fill}"${extra}/>`;
const circle = (cx: number, cy: number, r: number, fill: string, extra = '') =>
  `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}"${extra}/>`;
const path = (d: string, fill: string, extra = '') => `<path d="${d}" fill="${fill}"${extra}/>`;
const stroke = (c: string, w = 6) => ` stroke="${c}" stroke-width="${w}"`;

const screen: Drawing = (c) =>
  rect(70, 80, 260, 170, c.dark, 10) +
  rect(84, 94, 232, 142, c.light, 4) +
  rect(180, 250, 40, 40, c.dark, 0) +
  rect(130, 288, 140, 14, c.main, 7);

const DRAWINGS: Record<string, Drawing> = {
  fridge: (c) =>
    rect(120, 50, 160, 270, c.main, 14) +
    rect(120, 145, 160, 6, c.dark, 0) +
    rect(250, 80, 10, 45, c.dark, 4) +
    rect(250, 170, 10, 70, c.dark, 4),
  freezer: (c) =>
    rect(80, 130, 240, 170, c.main, 14) +
    rect(80, 130, 240, 30, c.dark, 10) +
    rect(180, 170, 40, 10, c.light, 4),
  washer: (c) =>
    rect(95, 70, 210, 240, c.main, 16) +
    rect(95, 70, 210, 45, c.dark, 12) +
    circle(200, 210, 70, c.light, stroke(c.dark, 10)) +
    circle(250, 92, 10, c.light),
  stove: (c) =>
    rect(90, 90, 220, 220, c.main, 10) +
    [130, 270].map((x) => circle(x - (x > 200 ? 20 : -20), 125, 22, c.dark)).join('') +
    rect(115, 175, 170, 105, c.light, 8, stroke(c.dark, 6)),
  microwave: (c) =>
    rect(60, 120, 280, 170, c.main, 14) +
    rect(80, 140, 180, 130, c.light, 8) +
    circle(295, 170, 12, c.dark) +
    circle(295, 215, 12, c.dark),
  heater: (c) =>
    rect(90, 100, 220, 200, c.main, 18) +
    [0, 1, 2, 3, 4, 5].map((i) => rect(110 + i * 32, 120, 20, 160, c.dark, 8)).join(''),
  fan: (c) =>
    circle(200, 150, 95, c.light, stroke(c.dark, 6)) +
    [0, 120, 240]
      .map((a) => path('M200 150 C 230 90, 270 110, 250 150 Z', c.main, ` transform="rotate(${a} 200 150)"`))
      .join('') +
    circle(200, 150, 16, c.dark) +
    rect(192, 245, 16, 60, c.dark, 4) +
    rect(140, 300, 120, 16, c.dark, 8),
  coffee: (c) =>
    rect(110, 70, 180, 60, c.dark, 12) +
    rect(120, 130, 60, 170, c.main, 6) +
    rect(110, 300, 180, 20, c.dark, 6) +
    path('M200 220 h70 v40 a35 35 0 0 1 -70 0 z', c.light, stroke(c.dark, 5)),
  kettle: (c) =>
    path('M130 300 L150 130 Q200 100 250 130 L270 300 Z', c.main) +
    path('M270 160 q60 20 0 110', 'none', stroke(c.dark, 14)) +
    rect(120, 295, 160, 20, c.dark, 8),
  blender: (c) =>
    path('M140 80 h120 l-20 170 h-80 z', c.light, stroke(c.dark, 6)) +
    rect(130, 250, 140, 70, c.main, 12) +
    circle(200, 285, 14, c.dark),
  vacuum: (c) =>
    path('M110 250 a90 70 0 0 1 180 0 v40 h-180 z', c.main) +
    circle(140, 300, 18, c.dark) +
    circle(260, 300, 18, c.dark) +
    path('M260 200 Q330 120 300 60', 'none', stroke(c.dark, 12)),
  laptop: (c) =>
    rect(95, 90, 210, 140, c.dark, 8) +
    rect(107, 102, 186, 116, c.light, 3) +
    path('M60 240 h280 l-20 40 h-240 z', c.main),
  monitor: screen,
  tv: (c) => screen(c) + rect(84, 94, 232, 20, c.main, 0, ' opacity="0.35"'),
  printer: (c) =>
    rect(130, 70, 140, 80, c.light, 4, stroke(c.dark, 4)) +
    rect(80, 140, 240, 120, c.main, 14) +
    rect(120, 230, 160, 70, c.light, 4, stroke(c.dark, 4)),
  tablet: (c) => rect(110, 60, 180, 260, c.dark, 22) + rect(124, 78, 152, 224, c.light, 6),
  phone: (c) =>
    rect(140, 50, 120, 280, c.dark, 24) + rect(150, 70, 100, 240, c.light, 8) + circle(200, 62, 4, c.main),
  watch: (c) =>
    rect(165, 50, 70, 300, c.main, 20) +
    rect(140, 130, 120, 140, c.dark, 30) +
    rect(152, 142, 96, 116, c.light, 22),
  charger: (c) =>
    rect(150, 90, 100, 110, c.main, 16) +
    rect(170, 60, 14, 34, c.dark, 3) +
    rect(216, 60, 14, 34, c.dark, 3) +
    path('M200 200 q0 60 -60 100', 'none', stroke(c.dark, 10)),
  headphones: (c) =>
    path('M110 230 a90 100 0 0 1 180 0', 'none', stroke(c.dark, 18)) +
    rect(90, 210, 50, 90, c.main, 20) +
    rect(260, 210, 50, 90, c.main, 20),
  speaker: (c) =>
    rect(120, 60, 160, 270, c.main, 20) +
    circle(200, 140, 40, c.dark) +
    circle(200, 250, 55, c.dark) +
    circle(200, 250, 20, c.light),
  console: (c) =>
    rect(90, 90, 220, 200, c.main, 18) + rect(90, 250, 220, 40, c.dark, 10) + circle(200, 170, 30, c.light),
  game: (c) =>
    rect(120, 60, 160, 260, c.main, 8) +
    rect(120, 60, 160, 40, c.dark, 6) +
    rect(140, 120, 120, 140, c.light, 4),
  bag: (c) =>
    path('M120 100 L280 100 L300 320 L100 320 Z', c.main) +
    rect(110, 80, 180, 30, c.dark, 6) +
    rect(140, 170, 120, 80, c.light, 8),
  bottle: (c) =>
    path('M175 50 h50 v50 q40 30 40 80 v140 q0 20 -20 20 h-90 q-20 0 -20 -20 v-140 q0 -50 40 -80 z', c.main) +
    rect(170, 40, 60, 22, c.dark, 6) +
    rect(145, 180, 110, 80, c.light, 8),
  wine: (c) =>
    path('M185 40 h30 v90 q35 25 35 70 v120 h-100 v-120 q0 -45 35 -70 z', c.dark) +
    rect(155, 210, 90, 70, c.light, 4) +
    rect(180, 40, 40, 30, c.main, 4),
  jar: (c) =>
    rect(130, 90, 140, 40, c.dark, 8) +
    rect(115, 125, 170, 190, c.main, 26) +
    rect(135, 180, 130, 80, c.light, 8),
  box: (c) =>
    rect(115, 60, 170, 260, c.main, 6) + rect(115, 60, 170, 40, c.dark, 4) + circle(200, 200, 50, c.light),
  can: (c) =>
    rect(125, 80, 150, 240, c.main, 16) +
    rect(125, 80, 150, 24, c.dark, 12) +
    rect(125, 296, 150, 24, c.dark, 12) +
    rect(140, 160, 120, 80, c.light, 8),
  carton: (c) =>
    path('M130 110 L200 60 L270 110 Z', c.dark) +
    rect(130, 110, 140, 210, c.main, 4) +
    rect(145, 170, 110, 90, c.light, 6),
  tub: (c) =>
    path('M110 130 h180 l-25 180 h-130 z', c.main) +
    rect(100, 110, 200, 28, c.dark, 10) +
    rect(145, 190, 110, 60, c.light, 8),
  cheese: (c) =>
    path('M80 260 L320 260 L320 180 L110 120 Z', c.main) +
    circle(170, 210, 14, c.light) +
    circle(250, 225, 18, c.light) +
    circle(280, 195, 9, c.light),
  icecream: (c) =>
    rect(110, 120, 180, 190, c.main, 20) +
    rect(100, 100, 200, 36, c.dark, 12) +
    circle(200, 215, 45, c.light),
  pump: (c) =>
    rect(130, 130, 140, 190, c.main, 26) +
    rect(185, 80, 30, 55, c.dark, 4) +
    rect(185, 70, 70, 18, c.dark, 6) +
    rect(150, 190, 100, 80, c.light, 8),
  tube: (c) =>
    path('M150 50 h100 l20 230 h-140 z', c.main) +
    rect(175, 280, 50, 40, c.dark, 6) +
    rect(160, 110, 80, 90, c.light, 8),
  bar: (c) => rect(80, 150, 240, 110, c.main, 40) + rect(120, 180, 160, 50, c.light, 24),
  spray: (c) =>
    rect(145, 110, 110, 210, c.main, 18) +
    rect(160, 70, 80, 45, c.dark, 8) +
    rect(230, 78, 40, 14, c.dark, 4) +
    rect(160, 170, 80, 90, c.light, 6),
  jug: (c) =>
    path('M110 120 h150 l30 40 v160 h-180 z', c.main) +
    path('M230 120 q60 0 60 60', 'none', stroke(c.dark, 14)) +
    rect(120, 95, 60, 30, c.dark, 6) +
    rect(130, 190, 120, 90, c.light, 8),
  roll: (c) =>
    [0, 1, 2]
      .map(
        (i) =>
          circle(140 + i * 60, 200, 55, c.light, stroke(c.main, 10)) + circle(140 + i * 60, 200, 16, c.dark),
      )
      .join(''),
  bed: (c) =>
    rect(60, 160, 280, 110, c.main, 20) +
    rect(60, 160, 280, 30, c.light, 16) +
    rect(70, 270, 20, 40, c.dark, 4) +
    rect(310, 270, 20, 40, c.dark, 4),
  pillow: (c) =>
    path('M80 140 Q200 100 320 140 Q340 200 320 260 Q200 300 80 260 Q60 200 80 140 Z', c.main) +
    path('M120 200 h160', 'none', stroke(c.light, 8)),
  pot: (c) =>
    rect(100, 150, 200, 140, c.main, 18) +
    rect(90, 135, 220, 24, c.dark, 10) +
    rect(60, 175, 45, 18, c.dark, 8) +
    rect(295, 175, 45, 18, c.dark, 8),
  plate: (c) =>
    circle(200, 200, 120, c.light, stroke(c.main, 14)) + circle(200, 200, 70, 'none', stroke(c.main, 6)),
  sofa: (c) =>
    rect(60, 170, 280, 100, c.main, 20) +
    rect(90, 120, 220, 70, c.dark, 18) +
    rect(70, 270, 20, 30, c.dark, 4) +
    rect(310, 270, 20, 30, c.dark, 4),
  desk: (c) =>
    rect(60, 150, 280, 24, c.main, 6) +
    rect(80, 174, 20, 140, c.dark, 4) +
    rect(300, 174, 20, 140, c.dark, 4) +
    rect(220, 174, 80, 70, c.main, 6),
  chair: (c) =>
    rect(140, 70, 120, 130, c.main, 24) +
    rect(125, 200, 150, 40, c.dark, 14) +
    rect(192, 240, 16, 60, c.dark, 4) +
    path('M130 320 L200 295 L270 320', 'none', stroke(c.dark, 10)),
};

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The picture of a key; `null` when the key is not a media key. */
export function renderProductSvg(key: string, opts: { reference?: boolean } = {}): string | null {
  const k = parseMediaKey(key);
  if (!k) return null;
  const variant = opts.reference ? null : k.variant;
  const c = colours(k.code, variant === 'x' ? 150 : 0);
  const draw = DRAWINGS[k.icon] ?? DRAWINGS.box;
  let body = draw(c);
  if (variant === 'x') body = `<g transform="translate(400 0) scale(-1 1)">${body}</g>`;
  if (variant === 'c') body = `<g transform="translate(-48 -30) scale(1.2) rotate(-4 200 200)">${body}</g>`;
  const code = k.code.length > 6 ? k.code.slice(-6) : k.code;
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400" role="img" aria-label="${escapeXml(k.label)}">
<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${c.bg1}"/><stop offset="1" stop-color="${c.bg2}"/></linearGradient></defs>
<rect width="400" height="400" fill="url(#bg)"/>
<ellipse cx="200" cy="330" rx="130" ry="14" fill="#000" opacity="0.08"/>
${body}
<rect x="0" y="348" width="400" height="52" fill="${c.dark}"/>
<text x="200" y="381" font-family="Arial, Helvetica, sans-serif" font-size="24" font-weight="700" fill="#fff" text-anchor="middle" letter-spacing="2">${escapeXml(k.label)}</text>
<text x="388" y="22" font-family="Arial, Helvetica, sans-serif" font-size="12" fill="${c.dark}" text-anchor="end" opacity="0.6">${escapeXml(code)}</text>
</svg>
`;
}

import { foldText } from '../search.js';

// Quantities and units in product titles ("1 L" = "1000 ml", "6 x 350 cc", "500 g" ≠ "1 kg", "pack 3").
// Every amount is brought to its dimension's base unit (grams, millilitres, units, gigabytes, inches),
// so that two titles compare their amounts, not their spellings. The tables are written by hand and
// tested by hand (units.test.ts).

export type Dimension = 'mass' | 'volume' | 'count' | 'storage' | 'inch' | 'length';

/** A unit's spelling (folded, no dot) → dimension and factor to the base unit. */
export const UNITS: Readonly<Record<string, readonly [Dimension, number]>> = {
  kg: ['mass', 1000],
  kgs: ['mass', 1000],
  kilo: ['mass', 1000],
  kilos: ['mass', 1000],
  kilogramo: ['mass', 1000],
  kilogramos: ['mass', 1000],
  g: ['mass', 1],
  gr: ['mass', 1],
  grs: ['mass', 1],
  gramo: ['mass', 1],
  gramos: ['mass', 1],
  mg: ['mass', 0.001],
  lb: ['mass', 453.592],
  lbs: ['mass', 453.592],
  oz: ['mass', 28.3495],
  l: ['volume', 1000],
  lt: ['volume', 1000],
  lts: ['volume', 1000],
  ltr: ['volume', 1000],
  litro: ['volume', 1000],
  litros: ['volume', 1000],
  ml: ['volume', 1],
  mls: ['volume', 1],
  cc: ['volume', 1],
  cm3: ['volume', 1],
  cl: ['volume', 10],
  dl: ['volume', 100],
  floz: ['volume', 29.5735],
  gal: ['volume', 3785.41],
  un: ['count', 1],
  u: ['count', 1],
  und: ['count', 1],
  unid: ['count', 1],
  unids: ['count', 1],
  unidad: ['count', 1],
  unidades: ['count', 1],
  uds: ['count', 1],
  pzs: ['count', 1],
  piezas: ['count', 1],
  rollos: ['count', 1],
  capsulas: ['count', 1],
  sobres: ['count', 1],
  bolsitas: ['count', 1],
  tabletas: ['count', 1],
  comprimidos: ['count', 1],
  panales: ['count', 1],
  hojas: ['count', 1],
  mb: ['storage', 1 / 1024],
  gb: ['storage', 1],
  tb: ['storage', 1024],
  pulgadas: ['inch', 1],
  pulgada: ['inch', 1],
  pulg: ['inch', 1],
  plg: ['inch', 1],
  '"': ['inch', 1],
  "''": ['inch', 1],
  mm: ['length', 1],
  cm: ['length', 10],
  mt: ['length', 1000],
  mts: ['length', 1000],
  metros: ['length', 1000],
};

/** Words that announce a pack's count: "pack 3", "pack x3", "display 12", "caja 24", "six pack". */
export const PACK_WORDS = [
  'pack',
  'paquete',
  'display',
  'caja',
  'bandeja',
  'set',
  'kit',
  'multipack',
  'promopack',
];
const WORD_NUMBERS: Record<string, number> = { six: 6, twelve: 12, doble: 2, duo: 2, trio: 3, tri: 3 };

/** One quantity of a title: `each` in the dimension's base unit, `pack` items of it. */
export interface Quantity {
  dim: Dimension;
  each: number;
  pack: number;
}

export interface Quantities {
  /** measures found, at most one per dimension (the first; a pack multiplies the first measure) */
  measures: Quantity[];
  /** the pack count read from the title (1 when none) */
  pack: number;
  /** the title with the measures and pack words taken out (folded) */
  rest: string;
}

const NUM = String.raw`(\d+(?:[.,]\d+)?|½)`;
const UNIT_ALT = Object.keys(UNITS)
  .sort((a, b) => b.length - a.length)
  .map((u) => u.replace(/"/g, '"').replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  .join('|');
// "6 x 350 cc", "6x350cc", "3 x 1 kg", "2 un x 500 g"
const MULTI = new RegExp(
  String.raw`(?<![\w.,])(\d+)\s*(?:un\.?|unid\.?|unidades)?\s*[x×*]\s*${NUM}\s*(${UNIT_ALT})(?![a-z0-9])`,
  'g',
);
const MEASURE = new RegExp(String.raw`(?<![\w.,])${NUM}\s*(${UNIT_ALT})(?![a-z0-9])`, 'g');
const PACK = new RegExp(
  String.raw`(?<![a-z])(?:(?:${PACK_WORDS.join('|')})\s*(?:de\s+|x\s*)?(\d+)|(\d+)\s*(?:${PACK_WORDS.join('|')})|x\s*(\d+)(?:\s*(?:un|unid|unidades|uds|u))?(?![a-z0-9.,])|(six|twelve|doble|duo|trio)\s*pack)(?![a-z0-9])`,
  'g',
);

/** A number as written ("1,5", "1.5", "1.000" before g/ml = 1000, "½"). */
export function parseAmount(s: string, unit?: string): number {
  if (s === '½') return 0.5;
  // "1.000 g": a thousands separator (no product weighs 1.000 g with three decimals)
  if (/^\d{1,3}\.\d{3}$/.test(s) && unit && UNITS[unit] && UNITS[unit][1] <= 1)
    return Number(s.replace('.', ''));
  return Number(s.replace(',', '.'));
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** The quantities of a title (folded with foldText first; "fl oz" read as one unit). */
export function parseQuantities(title: string): Quantities {
  let t = ` ${foldText(title)
    .replace(/fl\.?\s*oz/g, 'floz')
    .replace(/(\d)\s*(?:”|″)/g, '$1"')} `;
  const measures: Quantity[] = [];
  const add = (dim: Dimension, each: number, pack: number) => {
    if (!measures.some((m) => m.dim === dim)) measures.push({ dim, each: round(each), pack });
  };
  // network generations next to a storage size are not grams: "A54 5G 128 GB"
  const network = /\d\s*(gb|tb)\b/.test(t);
  if (network) t = t.replace(/(?<![\w.,])([2-5])\s*g(?![a-z0-9])/g, ' $1gnet ');
  t = t.replace(MULTI, (_m, n: string, a: string, u: string) => {
    const [dim, f] = UNITS[u];
    add(dim, parseAmount(a, u) * f, Number(n));
    return ' ';
  });
  t = t.replace(MEASURE, (_m, a: string, u: string) => {
    const [dim, f] = UNITS[u];
    // "12 un" is the pack's count when a measure is also given ("Yogur 12 un 125 g")
    add(dim, parseAmount(a, u) * f, 1);
    return ' ';
  });
  let pack = 1;
  t = t.replace(PACK, (_m, a?: string, b?: string, c?: string, w?: string) => {
    const n = Number(a ?? b ?? c ?? WORD_NUMBERS[w ?? ''] ?? 1);
    if (n > 1 && n <= 200) pack = n;
    return ' ';
  });
  // a count measure with another measure is the pack: "12 un x 125 g" already read; "Yogur 125 g 12 un"
  const count = measures.find((m) => m.dim === 'count');
  const other = measures.find((m) => m.dim !== 'count');
  if (count && other && other.pack === 1) {
    other.pack = count.each;
    measures.splice(measures.indexOf(count), 1);
  }
  if (pack > 1) {
    const first = measures.find((m) => m.dim !== 'count') ?? measures[0];
    if (first && first.pack === 1) first.pack = pack;
    else if (!first) measures.push({ dim: 'count', each: 1, pack });
  }
  // a count alone is a pack of single items: "12 un" = "pack 12" = "x12"
  const lone = measures.find((m) => m.dim === 'count');
  if (lone && lone.each !== 1) {
    lone.pack = round(lone.each * lone.pack);
    lone.each = 1;
  }
  const packOf = measures.find((m) => m.dim !== 'storage' && m.dim !== 'inch')?.pack ?? pack;
  return { measures, pack: packOf, rest: t.replace(/\s+/g, ' ').trim() };
}

/** Whether two amounts of one dimension are the same (within 2 %: "1 lb" vs "454 g", "12 oz" vs "340 g"). */
export function sameAmount(a: number, b: number): boolean {
  return Math.abs(a - b) <= 0.02 * Math.max(a, b);
}

const LABEL_UNIT: Record<Dimension, [string, number][]> = {
  mass: [
    ['kg', 1000],
    ['g', 1],
  ],
  volume: [
    ['L', 1000],
    ['ml', 1],
  ],
  count: [['un', 1]],
  storage: [
    ['TB', 1024],
    ['GB', 1],
  ],
  inch: [['"', 1]],
  length: [
    ['m', 1000],
    ['cm', 10],
    ['mm', 1],
  ],
};

/** The pack size a title states, for the review screen ("6 x 350 ml", "1 kg", "40 un"); null when none. */
export function quantityLabel(title: string): string | null {
  const q = parseQuantities(title).measures;
  if (!q.length) return null;
  return q.map(showQuantity).join(' · ');
}

/** One quantity as a shopper reads it, in its largest whole unit: "6 x 350 ml", "250 L", "1,5 kg", "40 un". */
export function showQuantity(m: Quantity): string {
  if (m.dim === 'count') return `${m.pack} un`;
  const [unit, f] =
    LABEL_UNIT[m.dim].find(([, f]) => m.each >= f) ?? LABEL_UNIT[m.dim][LABEL_UNIT[m.dim].length - 1];
  const amount = String(round(m.each / f)).replace('.', ',');
  return `${m.pack > 1 ? `${m.pack} x ` : ''}${amount}${unit === '"' ? '' : ' '}${unit}`;
}

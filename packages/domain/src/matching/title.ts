import { foldText } from '../search.js';
import { parseQuantities, type Quantity } from './units.js';

// What a product title says, as matching compares it (score.ts): brand, quantities, model numbers,
// variant words (colour, flavour, kind) and the remaining name words, folded (foldText: the app's one
// search folding, packages/domain/src/search.ts) and with Spanish/English plurals reduced.

/** Known spellings of one brand, folded to letters and digits → the brand's key. */
export const BRAND_ALIASES: Readonly<Record<string, string>> = {
  cocacola: 'cocacola',
  coca: 'cocacola',
  nestle: 'nestle',
  nestlecl: 'nestle',
  hewlettpackard: 'hp',
  hpinc: 'hp',
  lgelectronics: 'lg',
  samsungelectronics: 'samsung',
  lays: 'lays',
  mccormick: 'mccormick',
  mccormik: 'mccormick',
  procterandgamble: 'pg',
  procterygamble: 'pg',
  pg: 'pg',
  loreal: 'loreal',
  lorealparis: 'loreal',
  johnsonjohnson: 'johnsons',
  johnsons: 'johnsons',
  johnson: 'johnsons',
  soprolecl: 'soprole',
  carozzi: 'carozzi',
  lucchetti: 'lucchetti',
  luchetti: 'lucchetti',
  costa: 'costa',
  mckay: 'mckay',
  mckays: 'mckay',
  ccu: 'ccu',
  xiaomimi: 'xiaomi',
  redmi: 'xiaomi',
  apple: 'apple',
  appleinc: 'apple',
  sony: 'sony',
  sonyelectronics: 'sony',
  philips: 'philips',
  philipps: 'philips',
  head: 'headshoulders',
  headshoulders: 'headshoulders',
  headandshoulders: 'headshoulders',
};

/** A brand's key: folded, letters and digits only, known spellings joined (BRAND_ALIASES). */
export function brandKey(name: string | null | undefined): string | null {
  if (!name) return null;
  const k = foldText(name)
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]/g, '');
  if (!k) return null;
  return BRAND_ALIASES[k] ?? k;
}

/** Variant words by kind → canonical word (Spanish and English spellings joined). */
export const VARIANTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  color: {
    negro: 'negro',
    black: 'negro',
    blanco: 'blanco',
    white: 'blanco',
    rojo: 'rojo',
    red: 'rojo',
    azul: 'azul',
    blue: 'azul',
    verde: 'verde',
    green: 'verde',
    gris: 'gris',
    gray: 'gris',
    grey: 'gris',
    grafito: 'grafito',
    graphite: 'grafito',
    plateado: 'plata',
    plata: 'plata',
    silver: 'plata',
    dorado: 'dorado',
    gold: 'dorado',
    rosado: 'rosado',
    rosa: 'rosado',
    pink: 'rosado',
    morado: 'morado',
    purple: 'morado',
    violeta: 'morado',
    lila: 'morado',
    amarillo: 'amarillo',
    yellow: 'amarillo',
    naranjo: 'naranjo',
    celeste: 'celeste',
    beige: 'beige',
    brown: 'cafe',
    marron: 'cafe',
    titanio: 'titanio',
    titanium: 'titanio',
    medianoche: 'medianoche',
    midnight: 'medianoche',
  },
  flavor: {
    frutilla: 'frutilla',
    fresa: 'frutilla',
    strawberry: 'frutilla',
    chocolate: 'chocolate',
    choco: 'chocolate',
    vainilla: 'vainilla',
    vanilla: 'vainilla',
    naranja: 'naranja',
    orange: 'naranja',
    limon: 'limon',
    lemon: 'limon',
    pina: 'pina',
    pineapple: 'pina',
    durazno: 'durazno',
    melocoton: 'durazno',
    peach: 'durazno',
    manzana: 'manzana',
    apple: 'manzana',
    uva: 'uva',
    grape: 'uva',
    mango: 'mango',
    coco: 'coco',
    coconut: 'coco',
    menta: 'menta',
    mint: 'menta',
    frambuesa: 'frambuesa',
    raspberry: 'frambuesa',
    platano: 'platano',
    banana: 'platano',
    berries: 'berries',
    queso: 'queso',
    cheese: 'queso',
    jamon: 'jamon',
    pollo: 'pollo',
    chicken: 'pollo',
    carne: 'carne',
    vacuno: 'carne',
    beef: 'carne',
    picante: 'picante',
    spicy: 'picante',
    natural: 'natural',
    original: 'original',
    manjar: 'manjar',
    dulce: 'manjar',
    caramelo: 'caramelo',
    caramel: 'caramelo',
    cafe: 'cafe',
    coffee: 'cafe',
  },
  kind: {
    entera: 'entera',
    whole: 'entera',
    descremada: 'descremada',
    skim: 'descremada',
    semidescremada: 'semidescremada',
    sinlactosa: 'sinlactosa',
    deslactosada: 'sinlactosa',
    lactosefree: 'sinlactosa',
    light: 'light',
    zero: 'zero',
    sinazucar: 'zero',
    sugarfree: 'zero',
    diet: 'light',
    integral: 'integral',
    sinsal: 'sinsal',
    consal: 'consal',
    sinpepa: 'sinpepa',
    regular: 'regular',
    extra: 'extra',
    premium: 'premium',
    gourmet: 'gourmet',
    organico: 'organico',
    organic: 'organico',
    sabor: '',
    vegano: 'vegano',
    vegan: 'vegano',
    clasico: 'original',
    clasica: 'original',
    classic: 'original',
    lata: 'lata',
    can: 'lata',
    botella: 'botella',
    bottle: 'botella',
    retornable: 'retornable',
    desechable: 'desechable',
  },
  // editions of a model: "Note 13" and "Note 13 Pro" are two phones, so one side without it disagrees
  edition: {
    pro: 'pro',
    max: 'max',
    plus: 'plus',
    mini: 'mini',
    ultra: 'ultra',
    lite: 'lite',
    air: 'air',
    fe: 'fe',
  },
};

/** Generic nouns stores use for the same thing → one word ("néctar" = "jugo", "champú" = "shampoo"). */
export const SYNONYMS: Readonly<Record<string, string>> = {
  nectar: 'jugo',
  zumo: 'jugo',
  juice: 'jugo',
  gaseosa: 'bebida',
  refresco: 'bebida',
  soda: 'bebida',
  champu: 'shampoo',
  televisor: 'tv',
  television: 'tv',
  tele: 'tv',
  smartphone: 'celular',
  telefono: 'celular',
  movil: 'celular',
  auricular: 'audifono',
  audifono: 'audifono',
  headphone: 'audifono',
  laptop: 'notebook',
  portatil: 'notebook',
  yoghurt: 'yogur',
  yogurt: 'yogur',
  crema: 'pasta',
  infusion: 'te',
};

/** Whether two brand keys name one brand: equal, or one contains the other ("conchaytorocasillerodeldiablo"). */
export function sameBrand(a: string, b: string): boolean {
  if (a === b) return true;
  const [s, l] = a.length <= b.length ? [a, b] : [b, a];
  return s.length >= 5 && l.includes(s);
}

/** Words that say nothing about which product it is. */
const STOP = new Set(
  'de del la el los las con para en y x un una al por a the of and with for en e o u nuevo new oferta promo smart pack bolsa frasco tarro envase sachet doypack pet'.split(
    ' ',
  ),
);

/** Spanish/English plural to singular (naive, enough for titles): "limones" → "limon", "galletas" → "galleta". */
export function singular(w: string): string {
  if (w.length > 4 && w.endsWith('es') && /[lnrdzj]es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/** What matching reads from one listing's title and brand. */
export interface TitleFeatures {
  brand: string | null;
  measures: Quantity[];
  pack: number;
  /** model numbers and standalone numbers ("a54", "ue55cu7000", "13"), letters and digits only */
  models: string[];
  /** variant kind → canonical words ("color" → ["negro"]) */
  variants: Record<string, string[]>;
  /** remaining name words, singular, without brand words */
  words: string[];
}

function push(into: Record<string, string[]>, kind: string, v: string): void {
  const list = into[kind];
  if (list) list.push(v);
  else into[kind] = [v];
}

/** Reads a title (and its listing's brand, when known) into the parts matching compares. */
export function titleFeatures(title: string, brand?: string | null): TitleFeatures {
  const q = parseQuantities(title);
  const bKey = brandKey(brand);
  const brandWords = new Set(
    brand
      ? foldText(brand)
          .split(/[^a-z0-9]+/)
          .filter(Boolean)
      : [],
  );
  // model numbers written with a hyphen or a space between letters and digits: "SM-A546", "UE 55"
  const text = q.rest.replace(/\b([a-z0-9]+)[-/]([a-z0-9]+)\b/g, (_m, x: string, y: string) =>
    /\d/.test(x + y) ? x + y : `${x} ${y}`,
  );
  const raw = text.split(/[^a-z0-9"]+/).filter(Boolean);
  const models: string[] = [];
  const variants: Record<string, string[]> = {};
  const words: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    let w = raw[i];
    if (brandWords.has(w)) continue;
    // "sin azúcar", "con sal", "sin polvos": one variant word; "talla M": a size
    if ((w === 'sin' || w === 'con') && i + 1 < raw.length && !STOP.has(raw[i + 1])) {
      const two = w + singular(raw[i + 1]);
      push(variants, 'kind', VARIANTS.kind[w + raw[i + 1]] ?? VARIANTS.kind[two] ?? two);
      i++;
      continue;
    }
    if ((w === 'talla' || w === 'size' || w === 'talle') && i + 1 < raw.length) {
      push(variants, 'talla', raw[i + 1]);
      i++;
      continue;
    }
    if (/\d/.test(w)) {
      if (/^\dgnet$/.test(w)) w = w.replace('net', '');
      models.push(w);
      continue;
    }
    let kindHit = false;
    for (const kind of ['color', 'kind', 'edition', 'flavor'] as const) {
      const v = VARIANTS[kind][w] ?? VARIANTS[kind][singular(w)];
      if (v !== undefined) {
        if (v) push(variants, kind, v);
        kindHit = true;
        break;
      }
    }
    if (kindHit || STOP.has(w) || w.length < 2) continue;
    const one = singular(w);
    words.push(SYNONYMS[one] ?? SYNONYMS[w] ?? one);
  }
  for (const k of Object.keys(variants)) variants[k] = [...new Set(variants[k])].sort();
  return {
    brand: bKey,
    measures: q.measures,
    pack: q.pack,
    models: [...new Set(models)].sort(),
    variants,
    words,
  };
}

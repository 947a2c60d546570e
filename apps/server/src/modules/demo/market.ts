import type { RootKey } from './catalog-data.js';
import { nthWeekday, yearOf } from './dates.js';
import { h32, Rng } from './random.js';

// The demo market's sellers, sizes, promotion calendars and exchange rates.

export type DemoSize = 'tiny' | 'small' | 'medium' | 'large';

export interface SizeSpec {
  perSeller: number; // nominal listings per seller (each seller has its own factor)
  days: number; // days of history, ending today
  sellers: number[] | null; // null = all
  concurrency: number; // sellers ingested at once
}

export const SIZES: Record<DemoSize, SizeSpec> = {
  tiny: { perSeller: 150, days: 30, sellers: [5, 116, 125, 131, 150], concurrency: 1 },
  small: { perSeller: 2_500, days: 180, sellers: null, concurrency: 3 },
  medium: { perSeller: 25_000, days: 180, sellers: null, concurrency: 3 },
  large: { perSeller: 100_000, days: 180, sellers: null, concurrency: 3 },
};

export interface SellerDef {
  id: number;
  name: string;
  country: 'CL' | 'PE' | 'MX';
  currency: 'CLP' | 'PEN' | 'MXN';
  color: string;
  domain: string; // www.<domain>
  weights: Partial<Record<RootKey, number>>; // share of each root in its catalogue
  size: number; // listings factor
  priceLevel: number; // price positioning against the market
  card: boolean; // store card → card-holder exclusive prices (EXCLUSIVE)
  weekly: { day: number; len: number; rate: number }; // weekly offers: start weekday (Mon = 0), days, share
  nameStyle: 0 | 1 | 2 | 3; // word order / case of product names
  sizeStyle: 0 | 1 | 2; // "1 kg" | "1kg" | "1 Kg"
  catStyle: 0 | 1 | 2; // which synonym its breadcrumbs use
  flatCategories: boolean; // breadcrumbs without the middle level
  noEanRate: number; // listings published without EAN (matched by title)
  idPrefix: string;
  crawlMinute: number; // usual crawl time (minutes after midnight, Santiago)
}

const ALL: Partial<Record<RootKey, number>> = {
  EH: 0.6,
  TEC: 0.6,
  DES: 1,
  BEB: 1,
  LAC: 1,
  CP: 1,
  LIM: 1,
  HOG: 0.6,
};

export const SELLERS: SellerDef[] = [
  {
    id: 5,
    name: 'Mercado Central',
    country: 'CL',
    currency: 'CLP',
    color: '#1565c0',
    domain: 'mercadocentral.cl',
    weights: ALL,
    size: 1.2,
    priceLevel: 1,
    card: true,
    weekly: { day: 3, len: 7, rate: 0.1 },
    nameStyle: 0,
    sizeStyle: 0,
    catStyle: 0,
    flatCategories: false,
    noEanRate: 0.02,
    idPrefix: '',
    crawlMinute: 190,
  },
  {
    id: 116,
    name: 'Hogar Total',
    country: 'CL',
    currency: 'CLP',
    color: '#c2185b',
    domain: 'hogartotal.cl',
    weights: { EH: 1, TEC: 0.8, HOG: 1, LIM: 0.4, CP: 0.4 },
    size: 1,
    priceLevel: 1.02,
    card: true,
    weekly: { day: 0, len: 7, rate: 0.09 },
    nameStyle: 1,
    sizeStyle: 1,
    catStyle: 1,
    flatCategories: false,
    noEanRate: 0.03,
    idPrefix: 'HT',
    crawlMinute: 210,
  },
  {
    id: 125,
    name: 'TecnoPlaza',
    country: 'CL',
    currency: 'CLP',
    color: '#00897b',
    domain: 'tecnoplaza.cl',
    weights: { EH: 0.8, TEC: 1, HOG: 0.15 },
    size: 0.9,
    priceLevel: 0.99,
    card: false,
    weekly: { day: 2, len: 4, rate: 0.12 },
    nameStyle: 3,
    sizeStyle: 2,
    catStyle: 2,
    flatCategories: true,
    noEanRate: 0.05,
    idPrefix: 'TP-',
    crawlMinute: 250,
  },
  {
    id: 7,
    name: 'Ahorro Express',
    country: 'CL',
    currency: 'CLP',
    color: '#f9a825',
    domain: 'ahorroexpress.cl',
    weights: { DES: 1, BEB: 1, LAC: 1, CP: 0.8, LIM: 1, HOG: 0.1 },
    size: 1,
    priceLevel: 0.96,
    card: false,
    weekly: { day: 1, len: 7, rate: 0.08 },
    nameStyle: 2,
    sizeStyle: 2,
    catStyle: 1,
    flatCategories: false,
    noEanRate: 0.01,
    idPrefix: '',
    crawlMinute: 160,
  },
  {
    id: 12,
    name: 'Casa Andina',
    country: 'CL',
    currency: 'CLP',
    color: '#6d4c41',
    domain: 'casaandina.cl',
    weights: { HOG: 1, EH: 0.6, LIM: 0.3 },
    size: 0.8,
    priceLevel: 1.04,
    card: false,
    weekly: { day: 4, len: 3, rate: 0.15 },
    nameStyle: 0,
    sizeStyle: 1,
    catStyle: 2,
    flatCategories: false,
    noEanRate: 0.06,
    idPrefix: 'CA',
    crawlMinute: 290,
  },
  {
    id: 23,
    name: 'Multitienda Los Andes',
    country: 'CL',
    currency: 'CLP',
    color: '#5e35b1',
    domain: 'losandes.cl',
    weights: { EH: 1, TEC: 1, HOG: 0.8, CP: 0.4 },
    size: 1.2,
    priceLevel: 1.01,
    card: true,
    weekly: { day: 4, len: 7, rate: 0.1 },
    nameStyle: 1,
    sizeStyle: 0,
    catStyle: 0,
    flatCategories: false,
    noEanRate: 0.1,
    idPrefix: 'MLA',
    crawlMinute: 140,
  },
  {
    id: 31,
    name: 'ElectroSur',
    country: 'CL',
    currency: 'CLP',
    color: '#e53935',
    domain: 'electrosur.cl',
    weights: { EH: 1, TEC: 0.7 },
    size: 0.8,
    priceLevel: 0.98,
    card: false,
    weekly: { day: 0, len: 4, rate: 0.12 },
    nameStyle: 3,
    sizeStyle: 0,
    catStyle: 1,
    flatCategories: true,
    noEanRate: 0.04,
    idPrefix: 'ES',
    crawlMinute: 320,
  },
  {
    id: 44,
    name: 'Supermercado Austral',
    country: 'CL',
    currency: 'CLP',
    color: '#2e7d32',
    domain: 'superaustral.cl',
    weights: { DES: 1, BEB: 1, LAC: 1, CP: 1, LIM: 1 },
    size: 1,
    priceLevel: 1.03,
    card: true,
    weekly: { day: 2, len: 7, rate: 0.09 },
    nameStyle: 0,
    sizeStyle: 2,
    catStyle: 2,
    flatCategories: false,
    noEanRate: 0.01,
    idPrefix: '',
    crawlMinute: 175,
  },
  {
    id: 58,
    name: 'Bienestar Farma',
    country: 'CL',
    currency: 'CLP',
    color: '#00acc1',
    domain: 'bienestarfarma.cl',
    weights: { CP: 1, LAC: 0.2, BEB: 0.3, LIM: 0.3, DES: 0.1 },
    size: 0.6,
    priceLevel: 1.06,
    card: true,
    weekly: { day: 5, len: 2, rate: 0.2 },
    nameStyle: 1,
    sizeStyle: 1,
    catStyle: 0,
    flatCategories: true,
    noEanRate: 0.02,
    idPrefix: 'BF',
    crawlMinute: 230,
  },
  {
    id: 131,
    name: 'Mercado Lima',
    country: 'PE',
    currency: 'PEN',
    color: '#ef6c00',
    domain: 'mercadolima.pe',
    weights: { ...ALL, EH: 0.7, TEC: 0.7 },
    size: 1,
    priceLevel: 1,
    card: true,
    weekly: { day: 2, len: 7, rate: 0.1 },
    nameStyle: 2,
    sizeStyle: 0,
    catStyle: 1,
    flatCategories: false,
    noEanRate: 0.04,
    idPrefix: 'ML',
    crawlMinute: 200,
  },
  {
    id: 140,
    name: 'TiendaSol',
    country: 'PE',
    currency: 'PEN',
    color: '#8e24aa',
    domain: 'tiendasol.pe',
    weights: { EH: 1, TEC: 1, HOG: 0.6 },
    size: 0.8,
    priceLevel: 1,
    card: false,
    weekly: { day: 4, len: 4, rate: 0.12 },
    nameStyle: 0,
    sizeStyle: 1,
    catStyle: 2,
    flatCategories: true,
    noEanRate: 0.05,
    idPrefix: 'TS',
    crawlMinute: 270,
  },
  {
    id: 150,
    name: 'Casa Bonita',
    country: 'MX',
    currency: 'MXN',
    color: '#546e7a',
    domain: 'casabonita.com.mx',
    weights: { EH: 1, TEC: 1, HOG: 0.8, CP: 0.5 },
    size: 1,
    priceLevel: 1,
    card: true,
    weekly: { day: 1, len: 7, rate: 0.1 },
    nameStyle: 1,
    sizeStyle: 2,
    catStyle: 0,
    flatCategories: false,
    noEanRate: 0.08,
    idPrefix: 'CB-',
    crawlMinute: 300,
  },
];

/** The limited demo user's sellers, in order of preference: about half of the market, 5 first. */
export const LIMITED_PREFERENCE = [5, 116, 131, 7, 44, 31, 12, 58, 23, 125, 140, 150];

export interface PromoEvent {
  id: number;
  name: string;
  from: number; // absolute day, inclusive
  to: number; // exclusive
  participation: Partial<Record<RootKey, number>>;
  depth: [number, number];
}

const HEAVY: Partial<Record<RootKey, number>> = {
  EH: 0.45,
  TEC: 0.5,
  HOG: 0.35,
  DES: 0.18,
  BEB: 0.2,
  LAC: 0.12,
  CP: 0.2,
  LIM: 0.18,
};

/** The country's big promotion events (Cyber, Black Friday, Hot Sale…) of the years around `from..to`. */
export function promoEvents(country: SellerDef['country'], fromDay: number, toDay: number): PromoEvent[] {
  const out: PromoEvent[] = [];
  for (let y = yearOf(fromDay) - 1; y <= yearOf(toDay) + 1; y++) {
    const add = (name: string, start: number, len: number, depth: [number, number] = [0.2, 0.5]) =>
      out.push({ id: h32(y, start, len), name, from: start, to: start + len, participation: HEAVY, depth });
    const blackFriday = nthWeekday(y, 11, 3, 4) + 1; // the Friday after the fourth Thursday of November
    if (country === 'CL') {
      add(`CyberDay junio ${y}`, nthWeekday(y, 6, 0, 1), 3);
      add(`CyberDay octubre ${y}`, nthWeekday(y, 10, 0, 1), 3);
      add(`Black Friday ${y}`, blackFriday, 4);
    } else if (country === 'PE') {
      add(`Cyber Wow julio ${y}`, nthWeekday(y, 7, 0, 3), 3);
      add(`Cyber Wow noviembre ${y}`, nthWeekday(y, 11, 0, 1), 3);
      add(`Black Friday ${y}`, blackFriday, 4);
    } else {
      add(`Hot Sale ${y}`, nthWeekday(y, 5, 0, -1), 9, [0.15, 0.4]);
      add(`El Buen Fin ${y}`, nthWeekday(y, 11, 4, 3), 4);
    }
  }
  return out.filter((e) => e.to > fromDay && e.from <= toDay).sort((a, b) => a.from - b.from);
}

/** Daily CLP-per-unit rates from day `from` to `to` inclusive: a mean-reverting random walk. */
export function fxSeries(
  seed: number,
  from: number,
  to: number,
): { currency: string; day: number; rate: number }[] {
  const out: { currency: string; day: number; rate: number }[] = [];
  const start: Record<string, number> = { USD: 942, PEN: 251.5, MXN: 52.4 };
  for (const cur of ['USD', 'PEN', 'MXN']) {
    const rng = new Rng(h32(seed, cur.charCodeAt(0), cur.charCodeAt(1)));
    const mean = start[cur];
    let x = mean * (1 + (rng.next() - 0.5) * 0.03);
    for (let d = from; d <= to; d++) {
      const shock = (rng.next() + rng.next() + rng.next() - 1.5) * 0.006;
      x = x * (1 + shock) + (mean - x) * 0.03;
      const rate = Math.round(x * 10_000) / 10_000;
      out.push({ currency: cur, day: d, rate });
      if (cur === 'USD') out.push({ currency: 'PAB', day: d, rate }); // balboa pegged 1:1 to the dollar
    }
  }
  for (let d = from; d <= to; d++) out.push({ currency: 'CLP', day: d, rate: 1 });
  return out;
}

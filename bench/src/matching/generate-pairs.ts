// npx tsx bench/src/matching/generate-pairs.ts — writes bench/data/matching-pairs.json, the labelled set
// of the matching quality measure (issue 29): deterministic (seeded), from the hand-written families
// (families.ts) and five store title styles. 1,200 pairs: 300 true matches (one product as two stores
// title it), 600 traps (the same family differing in exactly one thing: size, pack, variant, model
// number or brand) and 300 other pairs (different families). Run it again only when the families or
// styles change, and commit the data with it.
import { writeFileSync } from 'node:fs';
import { FAMILIES, type Family } from './families.js';

export interface LabelledPair {
  a: { title: string; brand: string };
  b: { title: string; brand: string };
  match: boolean;
  /** how the pair was made: match | size | pack | variant | model | brand | other */
  kind: string;
}

/** mulberry32 */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = rng(29);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
const int = (n: number) => Math.floor(rand() * n);

interface Product {
  f: Family;
  variant: number;
  size: number;
  pack: number;
  model: number;
  brand: string;
}

const stripAccents = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
const title = (s: string) => s.replace(/\s+/g, ' ').replace(/\s+,/g, ',').trim();

/** One product titled as store `style` (0–4) writes it. */
function render(p: Product, style: number): { title: string; brand: string } {
  const f = p.f;
  const brand = p.brand === f.brand ? pick(f.brandSpellings) : p.brand;
  const noun = pick(f.nouns);
  const variant = pick(f.variants[p.variant]);
  const size = pick(f.sizes[p.size].spellings);
  const model = f.models ? pick(f.models[p.model]) : '';
  const line = [f.line ?? '', model].filter(Boolean).join(' ');
  const n = p.pack;
  let t: string;
  switch (style) {
    case 0: // "Leche Entera Colun 1 L", "Pack 6 Cerveza Cristal Lata 350 ml"
      t = `${n > 1 ? `Pack ${n} ` : ''}${noun} ${line} ${variant} ${brand} ${size}`;
      break;
    case 1: // "COLUN LECHE ENTERA 1L", "CRISTAL CERVEZA LATA 6X350CC"
      t =
        `${brand} ${noun} ${line} ${variant} ${n > 1 && size ? `${n}x${size.replace(/\s+/g, '')}` : size.replace(/\s+/g, '')}${n > 1 && !size ? ` pack ${n}` : ''}`.toUpperCase();
      break;
    case 2: // "leche colun entera 1000 ml pack 6" (no accents)
      t = stripAccents(
        `${noun} ${brand} ${line} ${variant} ${size}${n > 1 ? ` pack ${n}` : ''}`,
      ).toLowerCase();
      break;
    case 3: // "Bebida Coca Cola Zero, 1,5 lt x6"
      t = `${f.generic ? pick(f.generic) : noun} ${brand} ${line} ${variant}, ${size}${n > 1 ? ` x${n}` : ''}`;
      break;
    default: // "Leche Entera 1 L 6 un. - Colun"
      t = `${noun} ${variant} ${line} ${size}${n > 1 ? ` ${n} un` : ''} - ${brand}`;
  }
  return { title: title(t), brand: brand };
}

function productOf(f: Family): Product {
  return {
    f,
    variant: int(f.variants.length),
    size: int(f.sizes.length),
    pack: f.packs ? pick(f.packs) : 1,
    model: f.models ? int(f.models.length) : 0,
    brand: f.brand,
  };
}

/** The same product changed in exactly one thing (null when the family cannot vary it). */
function trap(p: Product, kind: string): Product | null {
  const f = p.f;
  const other = (n: number, cur: number) => (n < 2 ? null : (cur + 1 + int(n - 1)) % n);
  switch (kind) {
    case 'size': {
      const s = other(f.sizes.length, p.size);
      return s === null ? null : { ...p, size: s };
    }
    case 'pack': {
      if (!f.packs || f.packs.length < 2) return null;
      const choices = f.packs.filter((x) => x !== p.pack);
      return { ...p, pack: pick(choices) };
    }
    case 'variant': {
      const v = other(f.variants.length, p.variant);
      return v === null ? null : { ...p, variant: v };
    }
    case 'model': {
      const m = f.models ? other(f.models.length, p.model) : null;
      return m === null ? null : { ...p, model: m };
    }
    case 'brand':
      return { ...p, brand: pick(f.rivals) };
  }
  return null;
}

export function generatePairs(): LabelledPair[] {
  const pairs: LabelledPair[] = [];
  const twoStyles = () => {
    const a = int(5);
    return [a, (a + 1 + int(4)) % 5] as const;
  };
  while (pairs.length < 300) {
    const p = productOf(pick(FAMILIES));
    const [s, t] = twoStyles();
    pairs.push({ a: render(p, s), b: render(p, t), match: true, kind: 'match' });
  }
  const quota: Record<string, number> = { size: 140, pack: 110, variant: 160, model: 90, brand: 100 };
  for (const [kind, n] of Object.entries(quota)) {
    let made = 0;
    while (made < n) {
      const p = productOf(pick(FAMILIES));
      const q = trap(p, kind);
      if (!q) continue;
      const [s, t] = twoStyles();
      pairs.push({ a: render(p, s), b: render(q, t), match: false, kind });
      made++;
    }
  }
  while (pairs.length < 1200) {
    const f = pick(FAMILIES);
    const g = pick(FAMILIES);
    if (f === g) continue;
    const [s, t] = twoStyles();
    pairs.push({ a: render(productOf(f), s), b: render(productOf(g), t), match: false, kind: 'other' });
  }
  return pairs;
}

if (process.argv[1]?.endsWith('generate-pairs.ts')) {
  const out = new URL('../../data/matching-pairs.json', import.meta.url);
  const pairs = generatePairs();
  writeFileSync(out, `${JSON.stringify(pairs, null, 0).replace(/\},\{"a"/g, '},\n{"a"')}\n`);
  console.log(
    `${pairs.length} pares (${pairs.filter((p) => p.match).length} coincidencias) → ${out.pathname}`,
  );
}

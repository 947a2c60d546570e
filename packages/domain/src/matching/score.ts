import { sameBrand, type TitleFeatures, titleFeatures } from './title.js';
import { type Quantity, sameAmount, showQuantity } from './units.js';

// The title scorer: how alike two listings are, and which parts agreed and which did not (shown on the
// review screen). Each part is compared on its own; a part both titles state and that differs (another
// brand, another quantity or pack, another model number, another colour or flavour) caps the score below
// the suggestion threshold, since that is what tells two look-alike products apart. The name words give
// the base (Dice coefficient), agreeing quantities and model numbers raise it.

export type MatchPart = 'brand' | 'quantity' | 'pack' | 'model' | 'variant' | 'name';
export type PartVerdict = 'agree' | 'disagree' | 'missing';

export interface PartResult {
  part: MatchPart;
  verdict: PartVerdict;
  /** what each side said, for the screen ("1000 ml" / "500 ml") */
  a: string;
  b: string;
}

export interface MatchScore {
  /** 0 … 1, rounded to 3 decimals */
  score: number;
  parts: PartResult[];
}

/** The two thresholds (configurable: config.ts MATCH_AUTO_THRESHOLD / MATCH_SUGGEST_THRESHOLD). */
export interface MatchThresholds {
  /** at or above: matched automatically (source auto, reviewable) */
  auto: number;
  /** at or above (and below auto): suggested for review; below: nothing */
  suggest: number;
}
export const DEFAULT_MATCH_THRESHOLDS: MatchThresholds = { auto: 0.9, suggest: 0.55 };

/** What a score decides under the thresholds. */
export function classifyScore(
  score: number,
  t: MatchThresholds = DEFAULT_MATCH_THRESHOLDS,
): 'auto' | 'suggest' | 'none' {
  return score >= t.auto ? 'auto' : score >= t.suggest ? 'suggest' : 'none';
}

const showQ = showQuantity;
const showList = (xs: string[]) => xs.join(' ') || '—';

/**
 * Whether a model token is among another title's: equal, equal to two adjacent tokens written apart
 * ("15 eg3001la" = "15eg3001la"), or one a prefix of the other of at least 5 characters (a region
 * suffix: "43ur8750psa" = "43ur8750").
 */
export function modelIn(m: string, others: string[]): boolean {
  const cands = [...others];
  for (let i = 0; i + 1 < others.length; i++) cands.push(others[i] + others[i + 1]);
  return cands.some(
    (o) => o === m || (Math.min(o.length, m.length) >= 5 && (o.startsWith(m) || m.startsWith(o))),
  );
}

/** Highest score a pair with a doubt (a variant or name words said by one side only) may reach: below auto. */
const NOT_AUTO = 0.85;

function sameSet(a: string[], b: string[]): boolean {
  const A = new Set(a);
  const B = new Set(b);
  return A.size === B.size && [...A].every((w) => B.has(w));
}

/** Whether one word list's set is contained in the other's. */
function subsetEither(a: string[], b: string[]): boolean {
  const A = new Set(a);
  const B = new Set(b);
  return [...A].every((w) => B.has(w)) || [...B].every((w) => A.has(w));
}

/** Name similarity: the Dice coefficient, or 0.85 × the share of the shorter word set found in the longer. */
export function nameSimilarity(a: string[], b: string[]): number {
  const A = new Set(a);
  const B = new Set(b);
  if (!A.size || !B.size) return A.size === B.size ? 1 : 0.5;
  let inter = 0;
  for (const w of A) if (B.has(w)) inter++;
  const dc = (2 * inter) / (A.size + B.size);
  return inter === Math.min(A.size, B.size) ? Math.max(dc, 0.85) : dc;
}

/** Dice coefficient of two word lists (as sets). */
export function dice(a: string[], b: string[]): number {
  const A = new Set(a);
  const B = new Set(b);
  if (!A.size && !B.size) return 1;
  if (!A.size || !B.size) return 0;
  let inter = 0;
  for (const w of A) if (B.has(w)) inter++;
  return (2 * inter) / (A.size + B.size);
}

/** Scores two already-read titles (titleFeatures). */
export function scoreFeatures(a: TitleFeatures, b: TitleFeatures): MatchScore {
  const parts: PartResult[] = [];
  let cap = 1;
  let bonus = 0;

  // brand
  if (a.brand && b.brand) {
    const ok = sameBrand(a.brand, b.brand);
    parts.push({ part: 'brand', verdict: ok ? 'agree' : 'disagree', a: a.brand, b: b.brand });
    if (!ok) cap = Math.min(cap, 0.2);
  } else {
    parts.push({ part: 'brand', verdict: 'missing', a: a.brand ?? '—', b: b.brand ?? '—' });
    bonus -= 0.1;
  }

  // quantities, per dimension both state; then the pack
  const dims = a.measures.filter((m) => b.measures.some((n) => n.dim === m.dim));
  if (dims.length) {
    let qOk = true;
    let pOk = true;
    for (const m of dims) {
      const n = b.measures.find((x) => x.dim === m.dim) as Quantity;
      if (!sameAmount(m.each, n.each)) qOk = false;
      else if (m.pack !== n.pack) pOk = false;
    }
    const qa = dims.map(showQ).join(', ');
    const qb = dims.map((m) => showQ(b.measures.find((x) => x.dim === m.dim) as Quantity)).join(', ');
    parts.push({ part: 'quantity', verdict: qOk ? 'agree' : 'disagree', a: qa, b: qb });
    if (qOk)
      parts.push({ part: 'pack', verdict: pOk ? 'agree' : 'disagree', a: String(a.pack), b: String(b.pack) });
    if (!qOk || !pOk) cap = Math.min(cap, 0.35);
    else bonus += 0.15;
  } else if (a.measures.length || b.measures.length) {
    parts.push({
      part: 'quantity',
      verdict: 'missing',
      a: a.measures.map(showQ).join(', ') || '—',
      b: b.measures.map(showQ).join(', ') || '—',
    });
    if (a.pack !== b.pack) {
      parts.push({ part: 'pack', verdict: 'disagree', a: String(a.pack), b: String(b.pack) });
      cap = Math.min(cap, 0.35);
    }
    bonus -= 0.08;
  }

  // model numbers (and standalone numbers)
  if (a.models.length && b.models.length) {
    const [short, long] = a.models.length <= b.models.length ? [a.models, b.models] : [b.models, a.models];
    const shared = short.filter((m) => modelIn(m, long)).length;
    const verdict: PartVerdict = shared === short.length ? 'agree' : 'disagree';
    parts.push({ part: 'model', verdict, a: showList(a.models), b: showList(b.models) });
    if (verdict === 'agree') bonus += short.length === long.length ? 0.15 : 0.08;
    else cap = Math.min(cap, 0.35);
  } else if (a.models.length || b.models.length) {
    parts.push({ part: 'model', verdict: 'missing', a: showList(a.models), b: showList(b.models) });
    bonus -= 0.08;
  }

  // variant words, per kind
  const kinds = new Set([...Object.keys(a.variants), ...Object.keys(b.variants)]);
  for (const k of [...kinds].sort()) {
    const va = a.variants[k] ?? [];
    const vb = b.variants[k] ?? [];
    const same = va.length === vb.length && va.every((v, i) => v === vb[i]);
    const verdict: PartVerdict = !va.length || !vb.length ? 'missing' : same ? 'agree' : 'disagree';
    // "original"/"natural"/"regular" left unsaid is the default
    const defaultOnly = (xs: string[]) =>
      xs.every((x) => x === 'original' || x === 'natural' || x === 'regular');
    if (verdict === 'missing' && defaultOnly(va) && defaultOnly(vb)) continue;
    // an edition ("Pro") or a size ("talla M") one side lacks is another product
    const strict = k === 'edition' || k === 'talla';
    parts.push({
      part: 'variant',
      verdict: strict && verdict === 'missing' ? 'disagree' : verdict,
      a: showList(va),
      b: showList(vb),
    });
    if (verdict === 'disagree' || (strict && verdict === 'missing')) cap = Math.min(cap, 0.4);
    else if (verdict === 'agree') bonus += 0.05;
    else {
      // a variant said by one title only: reviewable, never automatic
      bonus -= 0.12;
      cap = Math.min(cap, NOT_AUTO);
    }
  }

  // name words
  const d = nameSimilarity(a.words, b.words);
  // each title has name words the other lacks ("lomitos en agua" / "lomitos en aceite"): reviewable only
  const bothOwn = !subsetEither(a.words, b.words);
  if (bothOwn) cap = Math.min(cap, NOT_AUTO);
  // "Original" said by one title while the other has a word it lacks ("Original" / "Bebé"): reviewable
  const saysDefault = (f: TitleFeatures) => Object.values(f.variants).some((v) => v.includes('original'));
  if (saysDefault(a) !== saysDefault(b) && !sameSet(a.words, b.words)) cap = Math.min(cap, NOT_AUTO);
  parts.push({
    part: 'name',
    verdict: !bothOwn ? 'agree' : d >= 0.4 ? 'missing' : 'disagree',
    a: showList(a.words),
    b: showList(b.words),
  });
  const base = 0.3 + 0.55 * d;
  const score = Math.max(0, Math.min(cap, base + bonus, 1));
  return { score: Math.round(score * 1000) / 1000, parts };
}

/** Scores two titles with their brands. */
export function scoreTitles(
  a: { title: string; brand?: string | null },
  b: { title: string; brand?: string | null },
): MatchScore {
  return scoreFeatures(titleFeatures(a.title, a.brand), titleFeatures(b.title, b.brand));
}

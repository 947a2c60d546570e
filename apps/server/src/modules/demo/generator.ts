import { demoPictureKind, pictureUrl } from '../../platform/media/index.js';
import type { Observation } from '../ingest/index.js';
import {
  BRAND_FAMILIES,
  type BrandSpec,
  type LeafSpec,
  type MidSpec,
  OWN_BRANDS,
  type RootKey,
  type RootSpec,
  TREE,
} from './catalog-data.js';
import { weekday } from './dates.js';
import type { PromoEvent, SellerDef } from './market.js';
import { ean13CheckDigit, h32, Rng, u01 } from './random.js';

// The pure part of the demo generator: catalogue, which seller carries what, and every listing's
// 180-day story (prices, offers, stock, publication). No database here; seed-demo.ts feeds the daily
// observations to ingestObservations.

export const SEED = 20_260_521;

export interface ClassNode {
  id: number;
  parentId: number | null;
  name: string;
  level: 1 | 2 | 3;
  path: number[];
}

export interface Leaf {
  id: number;
  index: number;
  spec: LeafSpec;
  root: RootSpec;
  mid: MidSpec;
}

export interface Brand {
  index: number;
  spec: BrandSpec;
  label: string; // short upper-case label for images
  company: string; // 4-digit GS1 company code
  items: number; // items created so far (EAN item reference)
}

export interface Item {
  index: number;
  leaf: Leaf;
  brand: Brand;
  ean: string;
  baseClp: number;
  attrs: string[];
  size: string | null;
  model: string | null;
  pop: number; // [0, 1): how widely it is carried
}

export interface Catalogue {
  nodes: ClassNode[];
  leaves: Leaf[];
  brands: Brand[];
  items: Item[];
}

const stripAccents = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');

/** Classification ids in depth-first order (1 = first root): stable across runs. */
export function buildTree(): { nodes: ClassNode[]; leaves: Leaf[] } {
  const nodes: ClassNode[] = [];
  const leaves: Leaf[] = [];
  let id = 0;
  for (const root of TREE) {
    const rootId = ++id;
    nodes.push({ id: rootId, parentId: null, name: root.name, level: 1, path: [rootId] });
    for (const mid of root.mids) {
      const midId = ++id;
      nodes.push({ id: midId, parentId: rootId, name: mid.name, level: 2, path: [rootId, midId] });
      for (const spec of mid.leaves) {
        const leafId = ++id;
        nodes.push({ id: leafId, parentId: midId, name: spec.name, level: 3, path: [rootId, midId, leafId] });
        leaves.push({ id: leafId, index: leaves.length, spec, root, mid });
      }
    }
  }
  return { nodes, leaves };
}

export function buildBrands(): Brand[] {
  const out: Brand[] = [];
  for (const family of Object.values(BRAND_FAMILIES)) {
    for (const spec of family) {
      const index = out.length;
      out.push({
        index,
        spec,
        label: stripAccents(spec.name)
          .toUpperCase()
          .replace(/[^A-Z0-9]/g, '')
          .slice(0, 10),
        company: String(1000 + ((index * 379) % 9000)),
        items: 0,
      });
    }
  }
  return out;
}

/** Mixed-radix combination number k of the attribute lists (and sizes, last). */
function combination(lists: string[][], k: number): string[] {
  const out: string[] = [];
  let rest = k;
  for (const list of lists) {
    out.push(list[rest % list.length]);
    rest = Math.floor(rest / list.length);
  }
  return out;
}

/** Builds the item catalogue: about `perSeller × 3.2` items spread over the leaves by weight. */
export function buildCatalogue(perSeller: number): Catalogue {
  const { nodes, leaves } = buildTree();
  const brands = buildBrands();
  const byFamily = new Map<string, Brand[]>();
  for (const [family, specs] of Object.entries(BRAND_FAMILIES)) {
    byFamily.set(
      family,
      specs.map((s) => brands.find((b) => b.spec === s)!),
    );
  }
  const rng = new Rng(SEED);
  const total = Math.round(perSeller * 3.2);
  const weightSum = leaves.reduce((s, l) => s + l.spec.weight, 0);
  const items: Item[] = [];
  const combos = new Map<string, number>(); // (leaf, brand) → names used
  for (const leaf of leaves) {
    const n = Math.max(4, Math.round((total * leaf.spec.weight) / weightSum));
    const family = byFamily.get(leaf.spec.brands)!;
    // Zipf-like brand shares: the first brands of a family are the big ones (in a stable shuffled order).
    const weights = family.map((_, r) => 1 / (1 + ((r + leaf.index) % family.length)) ** 0.8);
    const wsum = weights.reduce((a, b) => a + b, 0);
    const lists = leaf.spec.size ? [...leaf.spec.attrs, leaf.spec.size] : leaf.spec.attrs;
    const comboCount = lists.reduce((p, l) => p * l.length, 1);
    const step = [7, 11, 13, 17, 19, 23, 29].find((p) => comboCount % p !== 0) ?? 1; // coprime: a permutation
    for (let k = 0; k < n; k++) {
      let x = rng.next() * wsum;
      let bi = 0;
      while (x > weights[bi] && bi < family.length - 1) x -= weights[bi++];
      const brand = family[bi];
      const ck = `${leaf.index}:${brand.index}`;
      const used = combos.get(ck) ?? 0;
      combos.set(ck, used + 1);
      // A stable permutation of the combinations per (leaf, brand), so brands do not all start alike.
      const perm = (used * step + h32(leaf.index, brand.index)) % comboCount;
      const parts = combination(lists, used < comboCount ? perm : (perm + used) % comboCount);
      const size = leaf.spec.size ? parts.pop()! : null;
      const sizeRank = leaf.spec.size
        ? leaf.spec.size.indexOf(size!) / Math.max(1, leaf.spec.size.length - 1)
        : 0;
      const [lo, hi] = leaf.spec.price;
      const t = leaf.spec.size ? 0.6 * sizeRank + 0.4 * rng.next() : rng.next();
      const baseClp = Math.min(hi * 1.15, Math.max(lo * 0.9, lo * (hi / lo) ** t * brand.spec.tier));
      const itemRef = brand.items++;
      const first12 = `${brand.spec.gs1}${brand.company}${String(itemRef % 100_000).padStart(5, '0')}`;
      const model =
        leaf.spec.model || used >= comboCount
          ? `${leaf.spec.model ?? 'REF'}-${brand.label.slice(0, 2)}${String(100 + ((itemRef * 37) % 900)).padStart(3, '0')}${used >= comboCount ? String.fromCharCode(65 + (Math.floor(used / comboCount) % 26)) : ''}`
          : null;
      items.push({
        index: items.length,
        leaf,
        brand,
        ean: `${first12}${ean13CheckDigit(first12)}`,
        baseClp,
        attrs: parts,
        size,
        model,
        pop: rng.next() ** 1.6,
      });
    }
  }
  return { nodes, leaves, brands, items };
}

const GROCERY: RootKey[] = ['DES', 'BEB', 'LAC', 'CP', 'LIM'];

/** Items carried by a seller: popular items by many, niche ones by few; own brands always at 116/125. */
export function sellerItems(cat: Catalogue, seller: SellerDef, perSeller: number): Item[] {
  const target = perSeller * seller.size;
  const c = cat.items.map((it) => (seller.weights[it.leaf.root.key] ?? 0) * (0.2 + 1.6 * it.pop));
  // α such that Σ min(1, α·c) ≈ target (bisection).
  let lo = 0;
  let hi = 1;
  const expected = (a: number) => c.reduce((s, x) => s + Math.min(1, a * x), 0);
  while (expected(hi) < target && hi < 1e6) hi *= 2;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (expected(mid) < target) lo = mid;
    else hi = mid;
  }
  const alpha = hi;
  const forced = seller.id === 116 || seller.id === 125;
  return cat.items.filter(
    (it, i) =>
      u01(SEED, seller.id, it.index) < Math.min(1, alpha * c[i]) ||
      (forced && c[i] > 0 && OWN_BRANDS.includes(it.brand.spec.name)),
  );
}

/** Pack size as the seller writes it. */
function formatSize(size: string, style: SellerDef['sizeStyle']): string {
  if (style === 0) return size;
  if (style === 1) return size.replace(/(\d) (kg|g|ml|L|un|m|cm)\b/g, '$1$2');
  const caps: Record<string, string> = { kg: 'Kg', g: 'Gr', ml: 'Ml', L: 'Lt', un: 'Un', m: 'Mt', cm: 'Cm' };
  return size.replace(/(\d) (kg|g|ml|L|un|m|cm)\b/g, (_, d, u) => `${d} ${caps[u]}`);
}

/** The product name at a seller: word order, case and size notation differ between sellers. */
export function listingName(item: Item, seller: SellerDef): string {
  const noun = item.leaf.spec.noun;
  const brand = item.brand.spec.name;
  const attrs = item.attrs.join(' ');
  const size = item.size ? formatSize(item.size, seller.sizeStyle) : '';
  const model = item.model ?? '';
  let words: string[];
  switch (seller.nameStyle) {
    case 0:
      words = [noun, brand, attrs, size, model];
      break;
    case 1:
      words = [brand, noun, attrs, size, model];
      break;
    case 2:
      words = [noun, attrs, brand, size, model];
      break;
    default:
      words = [noun, brand, model, attrs, size];
  }
  const name = words.filter(Boolean).join(' ');
  return seller.nameStyle === 2 ? name.toUpperCase() : name;
}

/** The seller's breadcrumb for a leaf (its own names; some sellers skip the middle level). */
export function categoryPath(leaf: Leaf, seller: SellerDef): string[] {
  const pick = (alt: string[]) => alt[seller.catStyle % alt.length];
  const path = seller.flatCategories
    ? [pick(leaf.root.alt), pick(leaf.spec.alt)]
    : [pick(leaf.root.alt), pick(leaf.mid.alt), pick(leaf.spec.alt)];
  // Hypermarkets group their food and household lines under "Supermercado".
  const wide = Object.keys(seller.weights).length >= 7;
  return wide && GROCERY.includes(leaf.root.key) ? ['Supermercado', ...path] : path;
}

/** Retail price endings: CLP $1.290, $12.990, $149.990; PEN/MXN 12.90, 499.90, 1,299.00. */
export function retailPrice(p: number, currency: string): number {
  if (currency === 'CLP') {
    if (p < 1000) return Math.max(10, Math.round(p / 10) * 10);
    if (p < 10_000) return Math.round(p / 100) * 100 - 10;
    if (p < 100_000) return Math.round(p / 1000) * 1000 - 10;
    if (p < 1_000_000) return Math.round(p / 5000) * 5000 - 10;
    return Math.round(p / 10_000) * 10_000 - 10;
  }
  if (p < 10) return Math.max(0.5, Math.round(p * 10) / 10);
  if (p < 100) return Math.round((Math.round(p) - 0.1) * 100) / 100;
  if (p < 1000) return Math.round((Math.round(p / 10) * 10 - 0.1) * 100) / 100;
  return Math.round(p / 100) * 100 - 1;
}

/** A discounted price, or null when the rounding leaves no discount. */
function discounted(price: number, depth: number, currency: string): number | null {
  const p = retailPrice(price * (1 - depth), currency);
  return p < price ? p : null;
}

export type ImageClass = 'ok' | 'review' | 'wrong';

/** One listing and its story over the period (days are indexes 0..days−1). */
export interface ListingPlan {
  key: number;
  item: Item;
  root: RootKey;
  base: Omit<Observation, 'normalPrice'>;
  obs: Observation; // the observation object handed to ingest every day (prices updated in place)
  start: number; // first day published
  end: number; // first day no longer published (Infinity = never: also published on the days after the period)
  gapFrom: number; // temporarily unpublished [gapFrom, gapTo)
  gapTo: number;
  normals: number[]; // [day, price, day, price, …] permanent price from that day
  stock: number[]; // [from, to, …] out of stock
  exclusive: number[]; // [from, to, depth, …] card-holder price
  byquantity: number[]; // [from, to, kind, …] 0: 3×2, 1: second at 50 %, 2: 2 units −15 %
  clearance: number[]; // [from, to, depth, …] long markdowns
  errorDay: number; // a day with a wrong extraction (price ×100 or ÷100), −1 = none
  errorUp: boolean;
  image: ImageClass;
}

const BYQ_ROOTS: RootKey[] = ['DES', 'BEB', 'LAC', 'CP', 'LIM'];
const STOCK: Record<RootKey, [number, number]> = {
  // daily probability of a stock-out, mean duration in days
  EH: [0.004, 9],
  TEC: [0.005, 7],
  DES: [0.006, 3],
  BEB: [0.005, 3],
  LAC: [0.007, 2],
  CP: [0.004, 4],
  LIM: [0.004, 3],
  HOG: [0.003, 12],
};

/** Intervals [from, to, extra] of an event with daily start probability p and a duration range. */
function episodes(
  rng: Rng,
  from: number,
  to: number,
  p: number,
  dur: [number, number],
  extra: () => number,
): number[] {
  const out: number[] = [];
  let d = from - 1;
  for (;;) {
    d += rng.geometric(p);
    if (d >= to) break;
    const len = rng.int(dur[0], dur[1]);
    out.push(d, Math.min(to, d + len), extra());
    d += len + 1;
  }
  return out;
}

export function planListing(
  item: Item,
  seller: SellerDef,
  days: number,
  fx0: Record<string, number>,
): ListingPlan {
  const key = h32(SEED, seller.id, item.index, 1);
  const rng = new Rng(key);
  const root = item.leaf.root.key;
  const cur = seller.currency;

  // Publication: most listings exist from the start; some appear later, a few are unpublished.
  const start = rng.chance(0.12) ? rng.int(1, days - 1) : 0;
  let end = Number.POSITIVE_INFINITY;
  let gapFrom = days;
  let gapTo = days;
  if (rng.chance(0.03) && days - start > 6) end = rng.int(start + 3, days - 1);
  else if (rng.chance(0.015) && days - start > 12) {
    gapFrom = rng.int(start + 1, days - 8);
    gapTo = gapFrom + rng.int(2, 7);
  }

  // Permanent prices: the seller's level and the listing's own positioning, repriced now and then.
  const local = cur === 'CLP' ? item.baseClp : (item.baseClp / fx0[cur]) * 1.08;
  let price = local * seller.priceLevel * (1 + (rng.next() - 0.5) * 0.12);
  const normals = [0, retailPrice(price, cur)];
  const reprices = rng.poisson((days / 180) * (BYQ_ROOTS.includes(root) ? 1.4 : 0.9));
  const repriceDays = Array.from({ length: reprices }, () => rng.int(1, days - 1)).sort((a, b) => a - b);
  for (const d of repriceDays) {
    const f = BYQ_ROOTS.includes(root)
      ? rng.range(1.02, 1.09) // groceries: inflation
      : root === 'TEC'
        ? rng.range(0.86, 1.04) // technology gets cheaper
        : rng.range(0.92, 1.08);
    price *= f;
    const p = retailPrice(price, cur);
    if (normals[normals.length - 2] === d) normals[normals.length - 1] = p;
    else if (p !== normals[normals.length - 1]) normals.push(d, p);
  }

  const [pOut, meanOut] = STOCK[root];
  const stock = episodes(rng, start, days, pOut, [1, Math.round(meanOut * 2)], () => 0);
  if (rng.chance(0.006)) {
    const from = rng.int(start, days - 1);
    stock.length = 0;
    stock.push(from, Math.min(days, from + rng.int(20, 60)), 0); // a long stock-out
  }
  const exclusive = seller.card
    ? episodes(rng, start, days, 0.004, [5, 14], () => rng.range(0.05, 0.15))
    : [];
  const byquantity = BYQ_ROOTS.includes(root)
    ? episodes(rng, start, days, 0.004, [7, 21], () => rng.int(0, 2))
    : [];
  const clearance = episodes(rng, start, days, 0.0012, [10, 30], () => rng.range(0.15, 0.4));
  const errorDay = rng.chance(0.005 * (days / 180) * 2) ? rng.int(start, days - 1) : -1;
  const errorUp = rng.chance(0.5);

  const own = OWN_BRANDS.includes(item.brand.spec.name);
  const r = rng.next();
  const image: ImageClass = own ? (r < 0.78 ? 'ok' : r < 0.91 ? 'review' : 'wrong') : 'ok';
  const withEan = !(rng.next() < seller.noEanRate);
  const productId = `${seller.idPrefix}${String((item.index * 7919 + seller.id * 104_729) % 10_000_000).padStart(7, '0')}`;
  const code = item.ean;
  // own brands' listings show raster pictures with a known difference from the reference (pictures.ts)
  const mediaKey = `${item.leaf.spec.icon}-${item.brand.label}-${code}`;
  const tld = seller.domain;
  const base: Omit<Observation, 'normalPrice'> = {
    productId,
    sku: `${seller.id}-${String((item.index * 6151) % 1_000_000).padStart(6, '0')}`,
    ean: withEan ? item.ean : null,
    name: listingName(item, seller),
    brand: item.brand.spec.name,
    url: `https://www.${tld}/p/${productId}`,
    imageUrl: own
      ? pictureUrl(mediaKey, demoPictureKind(image, `${seller.id}:${productId}`))
      : `/media/products/${mediaKey}.svg`,
    categoryPath: categoryPath(item.leaf, seller),
    classificationId: item.leaf.id,
  };
  return {
    key,
    item,
    root,
    base,
    // one object shape for every listing (an explicit literal, number-typed price fields), so that the
    // code reading observations stays monomorphic
    obs: {
      productId: base.productId,
      sku: base.sku,
      ean: base.ean,
      name: base.name,
      brand: base.brand,
      url: base.url,
      imageUrl: base.imageUrl,
      categoryPath: base.categoryPath,
      classificationId: base.classificationId,
      normalPrice: 0,
      salePrice: null,
      exclusivePrice: null,
      byquantityPrice: null,
      byquantityQty: null,
      stockOut: false,
    },
    start,
    end,
    gapFrom,
    gapTo,
    normals,
    stock,
    exclusive,
    byquantity,
    clearance,
    errorDay,
    errorUp,
    image,
  };
}

/** Where a listing's cursors stand (days are visited in increasing order). */
interface Cursor {
  n: number;
  s: number;
  e: number;
  b: number;
  c: number;
}

/** Active triple of a [from, to, extra] list at day d, advancing the cursor; -1 when none. */
function active(list: number[], cur: Cursor, k: 's' | 'e' | 'b' | 'c', d: number): number {
  let i = cur[k];
  while (i < list.length && list[i + 1] <= d) i += 3;
  cur[k] = i;
  return i < list.length && list[i] <= d ? i : -1;
}

/**
 * Generates a seller's daily observations, day by day (one full catalogue observation per day). The
 * objects returned for a day are reused for the next one: hand them to ingest before asking for it.
 * `events[d]` is the promotion event active on day index d (if any); `abs0` the first absolute day.
 */
export class SellerTimeline {
  private readonly cursors: Cursor[];
  constructor(
    readonly seller: SellerDef,
    readonly plans: ListingPlan[],
    private readonly events: (PromoEvent | null)[],
    private readonly abs0: number,
  ) {
    this.cursors = plans.map(() => ({ n: 0, s: 0, e: 0, b: 0, c: 0 }));
  }

  day(d: number): Observation[] {
    const seller = this.seller;
    const cur = seller.currency;
    const abs = this.abs0 + d;
    const ev = this.events[d];
    const offset = (weekday(abs) - seller.weekly.day + 7) % 7;
    const weeklyOn = offset < seller.weekly.len;
    const weekStart = abs - offset;
    const out: Observation[] = [];
    for (let i = 0; i < this.plans.length; i++) {
      const p = this.plans[i];
      if (d < p.start || d >= p.end || (d >= p.gapFrom && d < p.gapTo)) continue;
      const c = this.cursors[i];
      while (c.n + 2 < p.normals.length && p.normals[c.n + 2] <= d) c.n += 2;
      let normal = p.normals[c.n + 1];
      let sale: number | null = null;
      let exclusive: number | null = null;
      let byq: number | null = null;
      let qty: number | null = null;

      const evShare = ev ? (ev.participation[p.root] ?? 0) : 0;
      if (ev && u01(p.key, ev.id) < evShare) {
        const depth = ev.depth[0] + u01(p.key, ev.id, 1) * (ev.depth[1] - ev.depth[0]);
        sale = discounted(normal, depth, cur);
        if (seller.card && u01(p.key, ev.id, 2) < 0.25)
          exclusive = discounted(sale ?? normal, 0.05 + 0.05 * u01(p.key, ev.id, 3), cur);
      } else if (weeklyOn && u01(p.key, weekStart, 7) < seller.weekly.rate) {
        sale = discounted(normal, 0.08 + 0.22 * u01(p.key, weekStart, 8), cur);
      }
      const ci = active(p.clearance, c, 'c', d);
      if (ci >= 0 && sale === null) sale = discounted(normal, p.clearance[ci + 2], cur);
      const ei = active(p.exclusive, c, 'e', d);
      if (ei >= 0) exclusive = discounted(sale ?? normal, p.exclusive[ei + 2], cur);
      const bi = active(p.byquantity, c, 'b', d);
      if (bi >= 0 && sale === null && exclusive === null) {
        const kind = p.byquantity[bi + 2];
        qty = kind === 0 ? 3 : 2;
        byq = retailPrice(normal * (kind === 0 ? 2 / 3 : kind === 1 ? 0.75 : 0.85), cur);
        if (byq >= normal) byq = qty = null;
      }
      const stockOut = active(p.stock, c, 's', d) >= 0;
      if (d === p.errorDay) {
        // A broken extraction: the price read 100 times too high or too low, for one day.
        normal = p.errorUp ? normal * 100 : retailPrice(normal / 100, cur === 'CLP' ? 'CLP' : 'PEN');
        sale = exclusive = byq = qty = null;
      }
      // The listing's observation object is reused day after day (only the prices and stock change), so
      // that ingest recognises an unchanged description without hashing it again.
      const obs = p.obs;
      obs.normalPrice = normal;
      obs.salePrice = sale;
      obs.exclusivePrice = exclusive;
      obs.byquantityPrice = byq;
      obs.byquantityQty = qty;
      obs.stockOut = stockOut;
      out.push(obs);
    }
    return out;
  }
}

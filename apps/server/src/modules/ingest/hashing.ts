import type { Observation } from './observation.js';

// cyrb53, a fast 53-bit hash (fits a JS number and a bigint column exactly), streamed over several
// fields (no string is built): values are fed in order, each followed by a separator; null/undefined
// feed a marker of their own.
let h1 = 0;
let h2 = 0;
function feedString(str: string): void {
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
}
function feedCode(ch: number): void {
  h1 = Math.imul(h1 ^ ch, 2654435761);
  h2 = Math.imul(h2 ^ ch, 1597334677);
}
// A number is fed as a tag and the two 32-bit halves of its IEEE-754 representation (no string is
// built); a string as its characters; null/undefined as a marker of their own.
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
function feed(v: string | number | boolean | null | undefined): void {
  if (v === null || v === undefined) feedCode(3);
  else if (typeof v === 'number') {
    f64[0] = v;
    feedCode(4);
    feedCode(u32[0]);
    feedCode(u32[1]);
  } else feedString(typeof v === 'string' ? v : String(v));
  feedCode(1);
}
function digest(): number {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Hash of what an observation says about prices and stock (what a new interval is opened for). */
export function priceHash(o: Observation, currency: string, type: string): number {
  h1 = 0xdeadbeef;
  h2 = 0x41c6ce57;
  feed(o.normalPrice);
  feed(o.salePrice);
  feed(o.exclusivePrice);
  feed(o.byquantityPrice);
  feed(type);
  feed(o.stockOut ? 1 : 0);
  feed(currency);
  return digest();
}

/**
 * The description hash of an observation object, remembered with the field values it was computed from:
 * a caller that passes the same objects run after run (the demo generator updates prices in place)
 * costs eight identity comparisons instead of hashing every string again.
 */
interface DescrMemo {
  dh: number;
  sku: Observation['sku'];
  ean: Observation['ean'];
  name: Observation['name'];
  brand: Observation['brand'];
  url: Observation['url'];
  imageUrl: Observation['imageUrl'];
  categoryPath: Observation['categoryPath'];
  path: string[] | null; // a copy of categoryPath when hashed (the array may be changed in place)
  classificationId: Observation['classificationId'];
}

function samePath(a: string[] | null | undefined, copy: string[] | null): boolean {
  if (!a || !copy) return !a && !copy;
  if (a.length !== copy.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== copy[i]) return false;
  return true;
}
// Kept on the observation object itself under a symbol (invisible to JSON and Object.keys): a property
// read costs a fraction of a WeakMap look-up, which showed in profiles at millions of observations.
const DESCR_MEMO = Symbol('vigia.ingest.descrMemo');
type Memoized = Observation & { [DESCR_MEMO]?: DescrMemo };

export function descrHashOf(o: Memoized): number {
  const m = o[DESCR_MEMO];
  if (
    m &&
    m.sku === o.sku &&
    m.ean === o.ean &&
    m.name === o.name &&
    m.brand === o.brand &&
    m.url === o.url &&
    m.imageUrl === o.imageUrl &&
    m.classificationId === o.classificationId &&
    m.categoryPath === o.categoryPath &&
    samePath(o.categoryPath, m.path)
  ) {
    return m.dh;
  }
  const dh = descrHash(o);
  if (!Object.isExtensible(o)) return dh; // a frozen observation is hashed every time
  o[DESCR_MEMO] = {
    dh,
    sku: o.sku,
    ean: o.ean,
    name: o.name,
    brand: o.brand,
    url: o.url,
    imageUrl: o.imageUrl,
    categoryPath: o.categoryPath,
    path: o.categoryPath ? [...o.categoryPath] : null,
    classificationId: o.classificationId,
  };
  return dh;
}

/** Hash of what an observation says about the listing itself. */
function descrHash(o: Observation): number {
  h1 = 0xdeadbeef;
  h2 = 0x41c6ce57;
  feed(o.sku);
  feed(o.ean);
  feed(o.name);
  feed(o.brand);
  feed(o.url);
  feed(o.imageUrl);
  if (o.categoryPath) {
    for (const level of o.categoryPath) {
      feedString(level);
      feedCode(2);
    }
  } else feedCode(3);
  feedCode(1);
  feed(o.classificationId);
  return digest();
}

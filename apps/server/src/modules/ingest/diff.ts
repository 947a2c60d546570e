import type pg from 'pg';
import { descrHashOf, priceHash } from './hashing.js';
import type { LockedSeller } from './lock.js';
import { derivePriceType, type IngestRun, type Observation } from './observation.js';
import type { ListingEntry, ListingMap, SellerState } from './state.js';

/** An observation that differs from what is stored (new, changed, re-described or re-published). */
export interface Candidate {
  o: Observation;
  pid: number | null; // as stored before the run (null: new listing)
  id: number | null; // after the run (a new listing's id once inserted)
  published: boolean;
  descr_changed: boolean;
  type: string;
  currency: string;
  ph: number;
  dh: number;
}

/** What the diff step finds: the batch (duplicates removed) and how it differs from what is stored. */
export interface BatchDiff {
  /** The seller's state this run goes on from (null: a partial run without one). */
  state: SellerState | null;
  /** The observations, the last one of each product id. */
  batch: Observation[];
  /** The observations that differ from what is stored. */
  cand: Candidate[];
  /** Full run: the published listings the seller no longer shows (unpublished by the unpublish step). */
  missing: number[];
}

/** Marks the state's listings observed by the current run (see diffBatch). */
let runStamp = 0;

/**
 * Step "diff": which observations differ from what is stored (hashes compared with the seller's state,
 * read once when this process has none that is current), which listings a full run no longer shows, and
 * whether the candidates' currencies exist.
 */
export async function diffBatch(
  client: pg.PoolClient,
  known: SellerState | undefined,
  run: IngestRun,
  observations: Observation[],
  { sellerCurrency, seq, epoch }: LockedSeller,
): Promise<BatchDiff> {
  const partial = run.mode === 'partial';
  let state = known && known.seq === seq && known.epoch === epoch ? known : null;
  if (!state && !partial) {
    // A full run without a current state reads the seller's listings once (all of them: a listing the
    // state does not hold is then new, and the published ones it holds but the run lacks are gone).
    const { rows } = await client.query<{
      product_id: string;
      id: number;
      published: boolean;
      dh: number | null;
      ph: number | null;
    }>(
      `select p.product_id, p.id, p.published, p.descr_hash as dh, lc.obs_hash as ph
         from products p left join listing_current lc on lc.product_id = p.id
        where p.seller_id = $1`,
      [run.sellerId],
    );
    const listings: ListingMap = new Map();
    for (const r of rows) listings.set(r.product_id, { pid: r.id, ph: r.ph, dh: r.dh, pub: r.published });
    state = { seq, epoch, listings };
  }

  // The last observation of a product id wins within one batch. Duplicates are rare: the listings the
  // state holds are stamped as observed by this run (no set of the batch's ids is built), and only when
  // an id shows up twice is the batch de-duplicated first.
  let batch = observations;
  let stamp = ++runStamp;
  let unknownIds = new Set<string>();
  const entries: (ListingEntry | undefined)[] = new Array(observations.length);
  const duplicated = () => {
    for (let i = 0; i < batch.length; i++) {
      const id = batch[i].productId;
      const e = state?.listings.get(id);
      entries[i] = e;
      if (e) {
        if (e.seen === stamp) return true;
        e.seen = stamp;
      } else if (unknownIds.has(id)) return true;
      else unknownIds.add(id);
    }
    return false;
  };
  if (duplicated()) {
    const byId = new Map<string, Observation>();
    for (const o of observations) byId.set(o.productId, o);
    batch = [...byId.values()];
    stamp = ++runStamp;
    unknownIds = new Set();
    duplicated();
  }
  const n = batch.length;

  // 0. Every observation's hashes, compared with what is stored: from the seller's state (a listing it
  // does not hold is new); a partial run without a state reads the observed listings from the database.
  const cand: Candidate[] = [];
  const lookup: Candidate[] = [];
  const lookupIds: string[] = [];
  for (let i = 0; i < n; i++) {
    const o = batch[i];
    const type = derivePriceType(o);
    const c0 = o.currency ?? sellerCurrency;
    const currency = c0 === sellerCurrency ? c0 : c0.toUpperCase(); // the seller's own is stored upper-case
    const ph = priceHash(o, currency, type);
    const dh = descrHashOf(o);
    const e = entries[i];
    if (e) {
      if (e.pub && e.ph === ph && e.dh === dh) continue;
      cand.push({
        o,
        pid: e.pid,
        id: e.pid,
        published: e.pub,
        descr_changed: e.dh !== dh,
        type,
        currency,
        ph,
        dh,
      });
    } else {
      const c = { o, pid: null, id: null, published: false, descr_changed: true, type, currency, ph, dh };
      if (state) cand.push(c);
      else {
        lookup.push(c);
        lookupIds.push(o.productId);
      }
    }
  }
  if (lookup.length) {
    const { rows } = await client.query<{
      i: number;
      id: number;
      published: boolean;
      dh: number | null;
      ph: number | null;
    }>({
      text: `select o.i::int as i, p.id, p.published, p.descr_hash as dh, lc.obs_hash as ph
         from unnest($2::text[]) with ordinality as o(product_id, i)
         join products p on p.seller_id = $1 and p.product_id = o.product_id
         left join listing_current lc on lc.product_id = p.id`,
      values: [run.sellerId, lookupIds],
    });
    const stored = new Map(rows.map((r) => [r.i - 1, r]));
    for (let k = 0; k < lookup.length; k++) {
      const c = lookup[k];
      const r = stored.get(k);
      if (r) {
        if (r.published && r.ph === c.ph && r.dh === c.dh) continue;
        c.pid = c.id = r.id;
        c.published = r.published;
        c.descr_changed = r.dh !== c.dh;
      }
      cand.push(c);
    }
  }

  // Currencies other than the seller's must exist (price_intervals has no foreign key to check them:
  // migrations/045). Only candidates matter: any other observation repeats its stored state.
  const foreign = new Set<string>();
  for (const c of cand) if (c.currency !== sellerCurrency) foreign.add(c.currency);
  if (foreign.size) {
    const { rows } = await client.query<{ acronym: string }>(
      'select acronym from currencies where acronym = any($1::text[])',
      [[...foreign]],
    );
    const existing = new Set(rows.map((r) => r.acronym));
    const unknown = [...foreign].filter((c) => !existing.has(c)).sort();
    if (unknown.length) throw new Error(`moneda desconocida: ${unknown.join(', ')}`);
  }

  // Full run: the published listings the seller no longer shows (the unpublish step).
  const missing: number[] = [];
  if (!partial && state) {
    for (const e of state.listings.values()) if (e.pub && e.seen !== stamp) missing.push(e.pid);
  }
  return { state, batch, cand, missing };
}

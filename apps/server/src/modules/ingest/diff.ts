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

/** What the diff step finds in one part of a run: its observations (duplicates removed) and how they differ. */
export interface PartDiff {
  /** The part's observations, the last one of each product id. */
  batch: Observation[];
  /** The observations that differ from what is stored. */
  cand: Candidate[];
}

/** Marks the state's listings observed by the current run (see RunDiff). */
let runStamp = 0;

/**
 * Step "diff", for a run handed over in one or several parts (ingest.ts): which observations differ from
 * what is stored (hashes compared with the seller's state, read once when this process has none that is
 * current), which listings a full run no longer shows (`missing`, once every part was seen), and whether
 * the candidates' currencies exist. The parts of one run must not repeat a product id (within one part
 * the last observation of an id wins).
 */
export class RunDiff {
  /** The seller's state this run goes on from (null: a partial run without one). */
  readonly state: SellerState | null;
  private readonly first = runStamp + 1; // every stamp of this run is ≥ first
  /** Ids of observed listings the state does not hold → the stamp of the part that observed them. */
  private readonly unknownIds = new Map<string, number>();

  private constructor(
    private readonly run: IngestRun,
    private readonly seller: LockedSeller,
    state: SellerState | null,
  ) {
    this.state = state;
  }

  static async open(
    client: pg.PoolClient,
    known: SellerState | undefined,
    run: IngestRun,
    seller: LockedSeller,
  ): Promise<RunDiff> {
    const { seq, epoch } = seller;
    let state = known && known.seq === seq && known.epoch === epoch ? known : null;
    if (!state && run.mode !== 'partial') {
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
    return new RunDiff(run, seller, state);
  }

  /** One part of the run: its observations compared with what is stored. */
  async part(client: pg.PoolClient, observations: Observation[]): Promise<PartDiff> {
    const { run, state, unknownIds, first } = this;
    const { sellerCurrency } = this.seller;
    // The last observation of a product id wins within one part. Duplicates are rare: the listings the
    // state holds are stamped as observed by this part (no set of the part's ids is built), and only when
    // an id shows up twice is the part de-duplicated first. An id observed by an earlier part is refused.
    let batch = observations;
    const partFirst = ++runStamp; // stamps below it (and ≥ first) are earlier parts of this run
    let stamp = partFirst;
    const entries: (ListingEntry | undefined)[] = new Array(observations.length);
    const repeated = (id: string) => {
      throw new Error(`el producto ${id} aparece en dos partes de la misma ejecución`);
    };
    const duplicated = () => {
      for (let i = 0; i < batch.length; i++) {
        const id = batch[i].productId;
        const e = state?.listings.get(id);
        entries[i] = e;
        if (e) {
          if (e.seen === stamp) return true;
          if (e.seen !== undefined && e.seen >= first && e.seen < partFirst) repeated(id);
          e.seen = stamp;
        } else {
          const at = unknownIds.get(id);
          if (at === stamp) return true;
          if (at !== undefined && at < partFirst) repeated(id);
          unknownIds.set(id, stamp);
        }
      }
      return false;
    };
    if (duplicated()) {
      const byId = new Map<string, Observation>();
      for (const o of observations) byId.set(o.productId, o);
      batch = [...byId.values()];
      stamp = ++runStamp;
      duplicated();
    }
    const n = batch.length;

    // Every observation's hashes, compared with what is stored: from the seller's state (a listing it
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
    return { batch, cand };
  }

  /** Full run, once every part was seen: the published listings the seller no longer shows (unpublish step). */
  missing(): number[] {
    const missing: number[] = [];
    if (this.run.mode !== 'partial' && this.state) {
      for (const e of this.state.listings.values())
        if (e.pub && (e.seen === undefined || e.seen < this.first)) missing.push(e.pid);
    }
    return missing;
  }
}

/**
 * A candidate once staged (stage.ts wrote its values into obs): only what the later steps read of its
 * observation is kept — its id (write, the seller's state) and EAN (match) — so that a large run does not
 * hold every observation until its end.
 */
export function slimCandidate(c: Candidate): Candidate {
  c.o = { productId: c.o.productId, ean: c.o.ean ?? null, normalPrice: null };
  return c;
}

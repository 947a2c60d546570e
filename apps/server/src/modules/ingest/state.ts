import type pg from 'pg';

/**
 * What ingest knows about a seller's listings (all of them, published or not) after its last run in
 * this process: per listing its id, whether it is published and the hashes stored with it. Valid while
 * sellers.ingest_seq (bumped by every run, in its transaction) and the seller's created_at are
 * unchanged, i.e. no other run (of any process) came in between; then a run needs no database read to
 * find what changed, what is new or what disappeared. A full run without it reads it (one query).
 */
export interface ListingEntry {
  pid: number;
  ph: number | null;
  dh: number | null;
  pub: boolean;
  seen?: number; // runStamp of the last run that observed it (this process)
}
export interface SellerState {
  seq: number;
  epoch: number;
  /** Every listing of the seller, published or not (pub), with the hashes stored with it. */
  listings: Map<string, ListingEntry>;
}
let sellerStates = new WeakMap<pg.Pool, Map<number, SellerState>>();

export function sellerStatesOf(pool: pg.Pool): Map<number, SellerState> {
  let states = sellerStates.get(pool);
  if (!states) {
    states = new Map();
    sellerStates.set(pool, states);
  }
  return states;
}

/** Forgets the listing states (see clearIngestCaches). */
export function clearSellerStates(): void {
  sellerStates = new WeakMap();
}

export type ListingMap = SellerState['listings'];

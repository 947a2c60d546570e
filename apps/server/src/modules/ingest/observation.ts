import { DEFAULT_PRICE_MODE, effectivePriceFor } from '@vigia/domain';
// What enters ingest: an observation of one listing, a run (a batch of one seller at one instant), its
// options and result; the rules of one observation (price type, effective price, validation).

export interface Observation {
  productId: string; // the seller's own id
  sku?: string | null;
  ean?: string | null;
  name?: string | null;
  brand?: string | null; // brand name as the seller shows it
  url?: string | null;
  imageUrl?: string | null;
  categoryPath?: string[] | null; // the seller's breadcrumb, root first
  classificationId?: number | null; // leaf of v2_classification when known
  normalPrice: number | null;
  salePrice?: number | null;
  exclusivePrice?: number | null;
  byquantityPrice?: number | null;
  byquantityQty?: number | null;
  priceType?: 'NORMAL' | 'SALE' | 'EXCLUSIVE' | 'BYQUANTITY' | null; // derived when absent
  stockOut?: boolean;
  currency?: string | null; // default: the seller's currency
}

export interface IngestRun {
  sellerId: number;
  source: 'demo' | 'feed' | 'crawler' | 'test';
  /** full: the whole catalogue was observed (missing listings are unpublished); partial: only these. */
  mode: 'full' | 'partial';
  observedAt: Date;
}

export interface IngestOptions {
  /**
   * false: the run's transaction commits asynchronously (`synchronous_commit = off`): much faster for
   * bulk loads (the demo generator); a crash may lose the last runs, never corrupt them. Default true.
   */
  durable?: boolean;
  /** Told how long each step of the run took (ms), in order (benchmarks, profiling). */
  onStep?: (step: string, ms: number) => void;
  /**
   * Roll-ups not run (by name): their rows are the caller's to rebuild from the history afterwards, with
   * the zone rebuild of the same name (registry.ts registerZoneRebuild; zones.ts rebuildDeferred) — a bulk
   * load (the demo seed) builds them once instead of run by run. Only roll-ups with a zone rebuild.
   */
  deferRollups?: readonly string[];
}

export interface IngestResult {
  runId: number;
  observations: number;
  changes: number;
  newListings: number;
  unpublished: number;
}

/** Price type of an observation that does not state it: the kind of its lowest price. */
export function derivePriceType(o: Observation): NonNullable<Observation['priceType']> {
  if (o.priceType) return o.priceType;
  const normal = o.normalPrice ?? Number.POSITIVE_INFINITY;
  const sale = o.salePrice ?? Number.POSITIVE_INFINITY;
  const exclusive = o.exclusivePrice ?? Number.POSITIVE_INFINITY;
  if (o.exclusivePrice != null && exclusive <= sale && exclusive < normal) return 'EXCLUSIVE';
  if (o.salePrice != null && sale < normal) return 'SALE';
  if (o.byquantityPrice != null && o.byquantityPrice < normal) return 'BYQUANTITY';
  return 'NORMAL';
}

/** Effective price (PRODUCT.md, docs/metrics.md): the lowest of the normal, sale and exclusive prices present. */
export function effectivePrice(
  o: Pick<Observation, 'normalPrice' | 'salePrice' | 'exclusivePrice'>,
): number | null {
  // The domain's one definition (docs/metrics.md "Effective price"), in the default price mode.
  return effectivePriceFor(
    { normal: o.normalPrice, sale: o.salePrice, exclusive: o.exclusivePrice },
    DEFAULT_PRICE_MODE,
  );
}

const PRICE_FIELDS = ['normalPrice', 'salePrice', 'exclusivePrice', 'byquantityPrice'] as const;

function validPrice(v: number | null | undefined): boolean {
  return v === null || v === undefined || (Number.isFinite(v) && v >= 0 && v < 1e12);
}

/** Refuses (throws) an observation whose product id or prices are out of range: the whole run fails. */
export function validate(o: Observation, i: number): void {
  const where = () => `observación ${i} (${o.productId})`;
  if (!o.productId || o.productId.length > 200) throw new Error(`${where()}: productId inválido`);
  // The four fields spelled out: a loop over their names costs a keyed property look-up each.
  if (
    validPrice(o.normalPrice) &&
    validPrice(o.salePrice) &&
    validPrice(o.exclusivePrice) &&
    validPrice(o.byquantityPrice)
  )
    return;
  for (const k of PRICE_FIELDS) if (!validPrice(o[k])) throw new Error(`${where()}: ${k} fuera de rango`);
}

import { discountPercent, rankingPosition } from '@vigia/domain';

// The change-event rules (docs/metrics.md "Notifications"): what one ingest run's new state of a matched
// listing means against its last trusted state. Pure: the roll-up (rollup.ts) reads the rows, these
// functions decide, the roll-up writes. Thresholds are named here and nowhere else.

export const RULES = {
  /** A price this many times above or below the trusted one is a likely extraction error. */
  suspiciousRatio: 5,
  /** A suspicious value still current after this long is taken as real (quietly, no event). */
  adoptSuspectAfterMs: 2 * 86_400_000,
  /** A new normal price held this long is a permanent repricing. */
  repricingDays: 3,
  /** Smallest permanent repricing reported (|%|). */
  repricingFloorPct: 2,
  /** Smallest move that can change "the cheapest" (|%|): below it a tie-break wobble, not news. */
  positionFloorPct: 1,
  /** A stock change within this long of the listing's last stock event is flapping (folded). */
  flappingMs: 86_400_000,
  /** A run where more than this share of the seller's matched listings go out of stock is suspicious. */
  massStockOutShare: 0.3,
  /** … and at least this many of them. */
  massStockOutMin: 20,
} as const;

const DAY_MS = 86_400_000;

/** The trusted state of a listing (table notif_listing_state). */
export interface ListingState {
  price: number | null;
  normal: number | null;
  promo: boolean;
  stockOut: boolean;
  published: boolean;
  pendingFrom: number | null;
  pendingSince: Date | null;
  stockEventAt: Date | null;
  suspectSince: Date | null;
}

/** What the run stored for the listing (listing_current), with what the rules need about it. */
export interface Observed {
  price: number | null;
  normal: number | null;
  promo: boolean;
  stockOut: boolean;
  published: boolean;
  /** First seen in this run (a new listing). */
  isNew: boolean;
}

export type GroupKind = 'promotion_start' | 'promotion_end' | 'stock_out' | 'stock_back' | 'new_listing';
export type PriceKind = 'cheapest_gained' | 'cheapest_lost' | 'repricing';
export type SuppressReason = 'suspicious' | 'temporary' | 'flapping' | 'below_floor' | 'mass_stock_out';

export interface PriceEvent {
  kind: PriceKind;
  before: number;
  after: number;
  /** Position in the market (null: none, as on the screens: no price, or nobody else with one). */
  rankBefore: number | null;
  rankAfter: number | null;
  /** Out of stock before this price: no position before (the text says "antes sin stock"). */
  wasOut?: boolean;
  days?: number;
}

export interface Outcome {
  /**
   * Aggregated per seller run: this listing's part (discount % for promotions — null when the promotion
   * has none, domain discountPercent — and the cheapest flag).
   */
  group: { kind: GroupKind; discount: number | null; cheapest: boolean }[];
  price: PriceEvent[];
  suppressed: SuppressReason[];
  next: ListingState;
}

/**
 * 1-based position of `price` among the other sellers' prices: the screens' ranking (domain
 * rankingPosition: prices within the tie tolerance share the place; no position without a price of mine
 * or of another seller).
 */
export function rankAmong(price: number | null, others: number[]): number | null {
  return rankingPosition(price, others);
}

const pct = (before: number, after: number) => ((after - before) / before) * 100;

function isSuspicious(trusted: number | null, seen: number | null): boolean {
  if (seen === null || trusted === null) return false;
  if (seen <= 0) return true;
  if (trusted <= 0) return false;
  const r = seen / trusted;
  return r > RULES.suspiciousRatio || r < 1 / RULES.suspiciousRatio;
}

/** The state a listing starts with when first seen matched (no events for its past). */
export function stateOf(o: Observed): ListingState {
  return {
    price: o.price,
    normal: o.normal,
    promo: o.promo,
    stockOut: o.stockOut,
    published: o.published,
    pendingFrom: null,
    pendingSince: null,
    stockEventAt: null,
    suspectSince: null,
  };
}

/**
 * One listing's run: `s` its trusted state (null: not known yet), `o` what the run stored, `others` the
 * current prices of the other in-stock listings of its match group in its currency, `t` the run's
 * instant. A listing not touched by the run but with a pending repricing or suspect value is passed with
 * `o` = its stored state (confirmPending / adoption happen then).
 */
export function evaluate(s: ListingState | null, o: Observed, others: number[], t: Date): Outcome {
  const out: Outcome = { group: [], price: [], suppressed: [], next: s ? { ...s } : stateOf(o) };
  if (!s) {
    if (o.isNew && o.published) out.group.push({ kind: 'new_listing', discount: null, cheapest: false });
    return out;
  }
  const n = out.next;
  if (!o.published || !s.published) {
    // Unpublished, or back after being unpublished: the state follows, nothing to tell.
    Object.assign(n, stateOf(o), { stockEventAt: s.stockEventAt });
    return out;
  }
  if (isSuspicious(s.price, o.price) || isSuspicious(s.normal, o.normal)) {
    if (!s.suspectSince) {
      n.suspectSince = t;
      out.suppressed.push('suspicious');
      return out;
    }
    if (t.getTime() - s.suspectSince.getTime() < RULES.adoptSuspectAfterMs) return out;
    // Held for days: a real price after all. Taken quietly (its size would be the error's, not news).
    Object.assign(n, stateOf(o), { stockEventAt: s.stockEventAt });
    return out;
  }
  n.suspectSince = null;

  // Stock out / back, flapping folded.
  if (o.stockOut !== s.stockOut) {
    if (s.stockEventAt && t.getTime() - s.stockEventAt.getTime() < RULES.flappingMs) {
      out.suppressed.push('flapping');
    } else {
      out.group.push({ kind: o.stockOut ? 'stock_out' : 'stock_back', discount: null, cheapest: false });
      n.stockEventAt = t;
    }
  }

  // Position and promotions: the effective price against the rest of the group.
  // (out of stock: not competing, after everyone)
  const rankBefore = s.stockOut ? others.length + 1 : rankAmong(s.price, others);
  const rankAfter = o.stockOut ? others.length + 1 : rankAmong(o.price, others);
  if (o.promo !== s.promo) {
    out.group.push(
      o.promo
        ? {
            kind: 'promotion_start',
            discount: discountPercent(o.normal, o.price),
            cheapest: rankAfter === 1 && rankBefore !== 1,
          }
        : { kind: 'promotion_end', discount: discountPercent(s.normal, s.price), cheapest: false },
    );
  } else if (o.price !== null && s.price !== null && o.price !== s.price && !o.stockOut && others.length) {
    const move = pct(s.price, o.price);
    const crossed = (rankAfter === 1) !== (rankBefore === 1);
    if (crossed && Math.abs(move) >= RULES.positionFloorPct) {
      out.price.push({
        kind: rankAfter === 1 ? 'cheapest_gained' : 'cheapest_lost',
        before: s.price,
        after: o.price,
        // out of stock it did not compete: no position before, said as such (issue 31 item 5)
        rankBefore: s.stockOut ? null : rankBefore,
        rankAfter,
        ...(s.stockOut ? { wasOut: true } : {}),
      });
    }
  }

  // Normal price: a change waits repricingDays to be called permanent; undone before, a temporary dip.
  if (o.normal !== null && s.normal !== null && o.normal !== s.normal) {
    if (s.pendingSince && o.normal === s.pendingFrom) {
      out.suppressed.push('temporary');
      n.pendingFrom = null;
      n.pendingSince = null;
    } else if (!s.pendingSince) {
      n.pendingFrom = s.normal;
      n.pendingSince = t;
    } else {
      n.pendingSince = t; // a further change: held from now
    }
  }
  n.price = o.price;
  n.normal = o.normal;
  n.promo = o.promo;
  n.stockOut = o.stockOut;
  confirmPending(n, rankAfter, t, out);
  return out;
}

/** A pending normal-price change held repricingDays becomes a 'repricing' event (or is dropped). */
export function confirmPending(n: ListingState, rank: number | null, t: Date, out: Outcome): void {
  if (!n.pendingSince || n.pendingFrom === null || n.normal === null) return;
  const held = t.getTime() - n.pendingSince.getTime();
  if (held < RULES.repricingDays * DAY_MS) return;
  const move = pct(n.pendingFrom, n.normal);
  if (Math.abs(move) >= RULES.repricingFloorPct) {
    out.price.push({
      kind: 'repricing',
      before: n.pendingFrom,
      after: n.normal,
      rankBefore: rank,
      rankAfter: rank,
      days: Math.floor(held / DAY_MS),
    });
  } else out.suppressed.push('below_floor');
  n.pendingFrom = null;
  n.pendingSince = null;
}

/**
 * A run that sends a large share of the seller's matched listings out of stock at once is far more
 * likely a broken crawl than a real stock-out: its stock_out parts are dropped (reason mass_stock_out).
 */
export function isMassStockOut(stockOuts: number, matchedListings: number): boolean {
  return stockOuts >= RULES.massStockOutMin && stockOuts > matchedListings * RULES.massStockOutShare;
}

import type { CompetitorPrice, PricingItem } from '@vigia/domain';
import { priceHighlight, samePrice } from '@vigia/domain';
import type { PriceTone } from '../../../components/data/PriceCell.js';

// How each price of a navigation row is highlighted (seed 001 §4 "Item display"): among the row's
// current prices (mine and each competitor's), the cheapest in the accent colour and the dearest in
// red; prices seen before today or out of stock are historical (grey) and take no part.

export interface RowTones {
  my: PriceTone;
  bySeller: Map<number, { competitor: CompetitorPrice; tone: PriceTone }>;
}

type RowInput = Pick<PricingItem, 'my_price' | 'historical' | 'competitors'>;

export function rowTones(item: RowInput): RowTones {
  const current: number[] = [];
  if (item.my_price !== null && !item.historical) current.push(item.my_price);
  for (const c of item.competitors) if (c.price !== null && !c.historical) current.push(c.price);
  const distinct = new Set(current).size;
  const min = current.length ? Math.min(...current) : null;
  const max = current.length ? Math.max(...current) : null;
  const tone = (price: number | null, historical: boolean): PriceTone => {
    if (historical) return 'historical';
    // A single price (or all equal) is neither cheapest nor dearest of anything.
    if (distinct < 2) return 'default';
    const h = priceHighlight(price, min, max);
    return h === 'none' ? 'default' : h;
  };
  const bySeller = new Map<number, { competitor: CompetitorPrice; tone: PriceTone }>();
  for (const c of item.competitors) {
    const prev = bySeller.get(c.seller_id);
    // One offer per seller is expected; if several arrive keep the cheapest.
    if (!prev || (c.price ?? Number.POSITIVE_INFINITY) < (prev.competitor.price ?? Number.POSITIVE_INFINITY))
      bySeller.set(c.seller_id, { competitor: c, tone: tone(c.price, c.historical) });
  }
  return { my: tone(item.my_price, item.historical), bySeller };
}

/** Head-to-head outcome of my price against one competitor's. */
export type Outcome = 'win' | 'lose' | 'tie' | 'none';

export function outcome(mine: number | null, theirs: number | null): Outcome {
  if (mine === null || theirs === null || mine <= 0 || theirs <= 0) return 'none';
  if (samePrice(mine, theirs)) return 'tie'; // the one tie tolerance (domain INDEX_EPSILON, relative)
  return mine < theirs ? 'win' : 'lose';
}

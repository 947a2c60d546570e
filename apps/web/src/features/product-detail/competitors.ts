import type { QmItem } from '@vigia/domain';
import type { PriceTone } from '../../components/data/PriceCell.js';

// How the 'Competidores' table shows a row (seed 001 §4 "Item display"): historical rows (seen before
// today or out of stock) in grey; otherwise the cheapest in the accent colour, the dearest in red.
// The server computes `historical` and `highlight`; this only maps them onto the table's tones.

export function rowTone(item: Pick<QmItem, 'historical' | 'highlight'>): PriceTone {
  if (item.historical) return 'historical';
  if (item.highlight === 'cheapest') return 'cheapest';
  if (item.highlight === 'dearest') return 'dearest';
  return 'default';
}

export type CompetitorSortKey = 'position' | 'seller' | 'difference' | 'last_seen';
export interface CompetitorSort {
  by: CompetitorSortKey;
  dir: 'asc' | 'desc';
}

const collator = new Intl.Collator('es', { sensitivity: 'base' });

/** Rows in the chosen order; missing values always last. The default (position asc) is the server's order. */
export function sortCompetitors(items: readonly QmItem[], sort: CompetitorSort): QmItem[] {
  const sign = sort.dir === 'asc' ? 1 : -1;
  const value = (i: QmItem): number | string | null => {
    switch (sort.by) {
      case 'position':
        return i.position;
      case 'seller':
        return i.seller_name;
      case 'difference':
        return i.difference;
      case 'last_seen':
        return i.last_seen;
    }
  };
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => {
      const va = value(a.item);
      const vb = value(b.item);
      if (va === null && vb === null) return a.index - b.index;
      if (va === null) return 1;
      if (vb === null) return -1;
      const c =
        typeof va === 'string' && typeof vb === 'string'
          ? collator.compare(va, vb)
          : (va as number) - (vb as number);
      return c !== 0 ? sign * c : a.index - b.index;
    })
    .map((x) => x.item);
}

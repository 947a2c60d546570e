import type { Observation } from '../ingest/index.js';
import type { PageProduct } from './extract.js';
import { isOutOfStock } from './extract.js';
import { majorUnits, type PriceContext, type PriceReading, parsePriceValue } from './price-text.js';

// From what a page says to an observation Vigía can trust — or to the reason it cannot (docs/architecture.md
// "Crawler: refusing what it cannot trust"). A doubted reading is recorded and shown, never written as a price:
// the listing keeps its last trusted price, and its freshness shows the gap.

/** How far a new price may move from the listing's last trusted one before it is doubted. */
export const SUSPICIOUS_DROP = 0.9; // more than 90 % below
export const SUSPICIOUS_RISE = 10; // 10 times or more above

export type ReadingRefusal =
  | 'sin precio'
  | 'precio cero o negativo'
  | 'moneda distinta'
  | 'precio ambiguo'
  | 'precio no válido'
  | 'caída sospechosa'
  | 'alza sospechosa'
  | 'sin identificador';

export interface ReadingContext extends PriceContext {
  /** the listing's last trusted effective price, in major units of the seller's currency */
  lastTrustedPrice?: number | null;
}

export type Judgement =
  | { ok: true; observation: Observation }
  | { ok: false; reason: ReadingRefusal; detail: string };

function priceOf(v: unknown, ctx: PriceContext, declared: string | null): PriceReading {
  if (declared && declared.toUpperCase() !== ctx.currency) {
    return { ok: false, reason: 'moneda distinta', detail: `${declared} en lugar de ${ctx.currency}` };
  }
  if (v == null || v === '') return { ok: false, reason: 'sin precio', detail: 'la oferta no tiene precio' };
  if (typeof v === 'number' && v <= 0) return { ok: false, reason: 'precio no válido', detail: String(v) };
  return parsePriceValue(v, ctx);
}

/** The listing's id at the seller: its SKU, else the page's canonical path (stable across query strings). */
export function listingIdOf(p: PageProduct): string | null {
  if (p.sku) return p.sku.slice(0, 128);
  if (p.url) {
    try {
      const u = new URL(p.url);
      return `${u.host}${u.pathname}`.slice(0, 128);
    } catch {
      return null;
    }
  }
  return null;
}

export function judgeReading(p: PageProduct, ctx: ReadingContext): Judgement {
  const productId = listingIdOf(p);
  if (!productId) return { ok: false, reason: 'sin identificador', detail: 'sin SKU ni URL canónica' };
  if (!p.offer) return { ok: false, reason: 'sin precio', detail: 'el producto no tiene oferta' };
  const price = priceOf(p.offer.price, ctx, p.offer.currency);
  if (!price.ok) {
    return {
      ok: false,
      reason: price.reason === 'sin precio' ? 'sin precio' : price.reason,
      detail: price.detail,
    };
  }
  const amount = majorUnits(price);
  if (amount <= 0) return { ok: false, reason: 'precio cero o negativo', detail: String(p.offer.price) };
  let normal: number | null = null;
  if (p.offer.normalPrice != null) {
    const n = priceOf(p.offer.normalPrice, ctx, p.offer.currency);
    // A strikethrough price only counts when it is above the price paid; otherwise the page shows no sale.
    if (n.ok && majorUnits(n) > amount) normal = majorUnits(n);
  }
  const last = ctx.lastTrustedPrice;
  if (last != null && last > 0) {
    if (amount < last * (1 - SUSPICIOUS_DROP)) {
      return {
        ok: false,
        reason: 'caída sospechosa',
        detail: `${amount} frente a ${last} (más de 90 % menos)`,
      };
    }
    if (amount >= last * SUSPICIOUS_RISE) {
      return { ok: false, reason: 'alza sospechosa', detail: `${amount} frente a ${last} (10 veces o más)` };
    }
  }
  const stockOut = isOutOfStock(p.offer.availability);
  return {
    ok: true,
    observation: {
      productId,
      sku: p.sku,
      ean: p.gtin && /^\d{8,14}$/.test(p.gtin) ? p.gtin : null,
      name: p.name,
      brand: p.brand,
      url: p.url,
      imageUrl: p.imageUrl,
      categoryPath: p.category
        ? p.category
            .split(/\s*[>/|]\s*/)
            .filter(Boolean)
            .slice(0, 8)
        : null,
      normalPrice: normal ?? amount,
      salePrice: normal != null ? amount : null,
      stockOut: stockOut ?? false,
      currency: ctx.currency,
    },
  };
}

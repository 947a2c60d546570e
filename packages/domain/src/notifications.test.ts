import { describe, expect, it } from 'vitest';
import { explainGroupEvent, explainPriceEvent, ordinal, sizePercent } from './notifications.js';

// The one-line explanations (docs/metrics.md "Notifications"), against sentences written by hand.

describe('notification explanations', () => {
  it('sizes: no decimals from 10 %, one below; ordinals', () => {
    expect(sizePercent(-18.18)).toBe('18 %');
    expect(sizePercent(4.25)).toBe('4,3 %');
    expect(ordinal(3)).toBe('3.º');
  });

  it('price events say who, how much, the prices, the place and why', () => {
    const f = { seller: 'Hogar Total', product: 'Olla 24 cm', currency: 'CLP', rankAfter: 1 };
    expect(
      explainPriceEvent('cheapest_gained', { ...f, before: 25_000, after: 22_000, rankBefore: 3 }).body,
    ).toBe(
      'Hogar Total bajó 12 % el precio de Olla 24 cm (de $25.000 a $22.000 CLP) y ahora es el más barato del mercado (antes 3.º).',
    );
    // a rise that leaves it the cheapest: it was out of stock (issue 31 item 5)
    expect(
      explainPriceEvent('cheapest_gained', {
        ...f,
        before: 3_099,
        after: 4_199,
        rankBefore: null,
        wasOut: true,
      }).body,
    ).toBe(
      'Hogar Total volvió a tener stock de Olla 24 cm y subió 35 % su precio (de $3.099 a $4.199 CLP): ahora es el más barato del mercado (antes sin stock, no competía).',
    );
    expect(
      explainPriceEvent('cheapest_lost', { ...f, before: 22_000, after: 26_400, rankBefore: 1, rankAfter: 2 })
        .body,
    ).toBe(
      'Hogar Total subió 20 % el precio de Olla 24 cm (de $22.000 a $26.400 CLP) y dejó de ser el más barato del mercado (ahora 2.º).',
    );
    expect(
      explainPriceEvent('repricing', {
        ...f,
        before: 20_000,
        after: 21_000,
        rankBefore: 2,
        rankAfter: 2,
        days: 3,
      }).body,
    ).toBe(
      'Hogar Total subió 5,0 % el precio normal de Olla 24 cm (de $20.000 a $21.000 CLP) y lo mantiene hace 3 días: es un cambio permanente, no una oferta (queda 2.º del mercado).',
    );
  });

  it('grouped events count the user’s products (one is named)', () => {
    expect(
      explainGroupEvent('promotion_start', {
        seller: 'TecnoPlaza',
        count: 12,
        avgDiscount: 18.4,
        cheapest: 5,
      }).body,
    ).toBe(
      'TecnoPlaza puso en promoción 12 productos tuyos con un descuento promedio de 18 %; queda como el más barato en 5.',
    );
    expect(
      explainGroupEvent('stock_out', { seller: 'TecnoPlaza', count: 1, product: 'Audífonos X' }).body,
    ).toBe('TecnoPlaza se quedó sin stock en Audífonos X: es una oportunidad de venta mientras no repone.');
    expect(explainGroupEvent('new_listing', { seller: 'TecnoPlaza', count: 1_250 }).title).toBe(
      'TecnoPlaza publicó 1.250 productos nuevos que también vendes',
    );
  });
});

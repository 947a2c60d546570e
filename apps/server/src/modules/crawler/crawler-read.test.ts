import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractProduct, isOutOfStock } from './extract.js';
import { parsePriceText, parsePriceValue } from './price-text.js';
import { judgeReading } from './reading.js';

const page = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

describe('price text, decided with the seller country and currency, exact in minor units', () => {
  const cases: [string, string, string, number][] = [
    // text, country, currency, minor units (worked out by hand)
    ['$1.299.990', 'CL', 'CLP', 1_299_990],
    ['$ 1.299.990', 'CL', 'CLP', 1_299_990],
    ['S/ 1,299.90', 'PE', 'PEN', 129_990],
    ['S/. 45.50', 'PE', 'PEN', 4_550],
    ['MXN 12,499.00', 'MX', 'MXN', 1_249_900],
    ['$12,499.00 MXN', 'MX', 'MXN', 1_249_900],
    ['1.299,90 €', 'ES', 'EUR', 129_990],
    ['Bs. 45,50', 'BO', 'BOB', 4_550],
    ['R$ 1.299,90', 'BR', 'BRL', 129_990],
    ['COP 89.900', 'CO', 'COP', 89_900],
    ['USD 1,299', 'PA', 'USD', 129_900],
    ['$ 990', 'CL', 'CLP', 990],
    ['1 299 990 CLP', 'CL', 'CLP', 1_299_990],
  ];
  it.each(cases)('%s (%s, %s) = %d', (text, country, currency, minor) => {
    expect(parsePriceText(text, { country, currency })).toEqual({
      ok: true,
      minor,
      currency,
      digits: currency === 'CLP' || currency === 'COP' ? 0 : 2,
    });
  });

  it('refuses what could be two amounts, with the reason', () => {
    // In Mexico "1.299" is 1.299 pesos or a typo for 1,299: refused, not guessed.
    expect(parsePriceText('$1.299', { country: 'MX', currency: 'MXN' })).toMatchObject({
      ok: false,
      reason: 'precio ambiguo',
    });
    // Chilean pesos have no cents.
    expect(parsePriceText('$12,50', { country: 'CL', currency: 'CLP' })).toMatchObject({
      ok: false,
      reason: 'precio ambiguo',
    });
    // Two prices in one string ("antes/ahora").
    expect(parsePriceText('$1.299.990 $1.499.990', { country: 'CL', currency: 'CLP' })).toMatchObject({
      ok: false,
      reason: 'precio ambiguo',
    });
    // Grouping that is not in threes.
    expect(parsePriceText('$12.99.990', { country: 'CL', currency: 'CLP' })).toMatchObject({
      ok: false,
      reason: 'precio ambiguo',
    });
  });

  it('refuses another currency than the seller’s instead of converting it', () => {
    expect(parsePriceText('USD 1,299', { country: 'CL', currency: 'CLP' })).toMatchObject({
      ok: false,
      reason: 'moneda distinta',
    });
    expect(parsePriceText('S/ 45.50', { country: 'CL', currency: 'CLP' })).toMatchObject({
      ok: false,
      reason: 'moneda distinta',
    });
  });

  it('reads machine values with a dot, trailing zeros beyond the currency digits allowed', () => {
    expect(parsePriceValue('349990', { country: 'CL', currency: 'CLP' })).toMatchObject({
      ok: true,
      minor: 349_990,
    });
    expect(parsePriceValue('349990.00', { country: 'CL', currency: 'CLP' })).toMatchObject({
      ok: true,
      minor: 349_990,
    });
    expect(parsePriceValue(1299.9, { country: 'PE', currency: 'PEN' })).toMatchObject({
      ok: true,
      minor: 129_990,
    });
    expect(parsePriceValue('1.299.990', { country: 'CL', currency: 'CLP' })).toMatchObject({
      ok: true,
      minor: 1_299_990,
    });
    expect(parsePriceValue('12.345', { country: 'MX', currency: 'MXN' })).toMatchObject({
      ok: false,
      reason: 'precio ambiguo',
    });
    expect(parsePriceValue(Number.NaN, { country: 'CL', currency: 'CLP' })).toMatchObject({ ok: false });
  });
});

describe('reading a product page', () => {
  it('JSON-LD @graph with a strikethrough price: sale over normal, ids and picture', () => {
    const r = extractProduct(
      page('vtex-jsonld.html'),
      'https://tiendasol.example/refrigerador-nf-300/p?utm=x',
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.product).toMatchObject({
      source: 'json-ld',
      name: 'Refrigerador No Frost 300 L Inox',
      brand: 'Frío Andino',
      gtin: '7801234567895',
      sku: 'RF-300-INX',
      mpn: 'FA300NF',
      imageUrl: 'https://cdn.tiendasol.example/rf300.jpg',
      url: 'https://tiendasol.example/refrigerador-nf-300/p',
    });
    const j = judgeReading(r.product, { country: 'CL', currency: 'CLP' });
    expect(j).toMatchObject({
      ok: true,
      observation: { productId: 'RF-300-INX', normalPrice: 429_990, salePrice: 349_990, stockOut: false },
    });
  });

  it('AggregateOffer reads its lowest price; a bare availability word counts', () => {
    const r = extractProduct(
      page('shopify-aggregate.html'),
      'https://andes.example/products/zapatilla-trail',
    );
    expect(r).toMatchObject({
      ok: true,
      product: {
        brand: 'Cumbre',
        gtin: '00012345678905',
        offer: { price: '1299.90', availability: 'InStock' },
      },
    });
    if (!r.ok) return;
    expect(judgeReading(r.product, { country: 'PE', currency: 'PEN' })).toMatchObject({
      ok: true,
      observation: { normalPrice: 1299.9, salePrice: null },
    });
  });

  it('two products on one page: the one at the page’s canonical URL; the first offer in stock', () => {
    const r = extractProduct(page('two-products.html'), 'https://mercado.example/notebook-orbis-14?ref=1');
    expect(r).toMatchObject({
      ok: true,
      product: { name: 'Notebook Orbis 14', offer: { price: '12999.00' } },
    });
  });

  it('microdata when there is no JSON-LD: nested brand scope, content over text, link href', () => {
    const r = extractProduct(page('microdata.html'), 'https://olivar.example/aceite');
    expect(r).toMatchObject({
      ok: true,
      product: {
        source: 'microdata',
        name: 'Aceite de Oliva Extra Virgen 1 L',
        brand: 'Olivar del Sur',
        gtin: '7790001112223',
        sku: 'AO-1L',
        offer: { price: '8990', currency: 'CLP', availability: 'https://schema.org/InStock' },
      },
    });
  });

  it('OpenGraph product:price last; broken JSON-LD falls through to it', () => {
    expect(extractProduct(page('opengraph.html'), 'https://bolivar.example/licuadora-600')).toMatchObject({
      ok: true,
      product: {
        source: 'opengraph',
        name: 'Licuadora 600 W Vidrio',
        offer: { price: '45.50', currency: 'BOB' },
      },
    });
    const broken = extractProduct(page('broken-jsonld.html'), 'https://ferreteria.example/taladro');
    expect(broken).toMatchObject({
      ok: true,
      product: { source: 'opengraph', name: 'Taladro Percutor 800 W', offer: { price: '89900' } },
    });
  });

  it('says what a page that is not a product is', () => {
    expect(extractProduct(page('captcha.html'), 'https://x.example/p')).toMatchObject({
      ok: false,
      reason: 'página de bloqueo',
    });
    expect(extractProduct(page('soft-404.html'), 'https://x.example/p')).toMatchObject({
      ok: false,
      reason: 'página no encontrada',
    });
    expect(extractProduct(page('category.html'), 'https://t.example/televisores')).toMatchObject({
      ok: false,
      reason: 'página de categoría',
    });
    expect(extractProduct(page('redesign.html'), 'https://x.example/p')).toMatchObject({
      ok: false,
      reason: 'sin datos de producto',
    });
  });

  it('a product whose name has 404 in it is a product, not a soft 404', () => {
    const html = `<html lang="es"><head><title>Peugeot 404 a escala 1:18</title><script type="application/ld+json">{"@type":"Product","name":"Peugeot 404 1:18","sku":"P404","offers":{"price":"24990","priceCurrency":"CLP"}}</script></head></html>`;
    expect(extractProduct(html, 'https://x.example/p')).toMatchObject({ ok: true, product: { sku: 'P404' } });
  });

  it('hostile names stay inert text (bounded), never markup', () => {
    const r = extractProduct(page('hostile.html'), 'https://x.example/p');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.product.name).toBe("=cmd|' /C calc'!A0<img src=x onerror=alert(1)>");
    const huge = `<html><head><title>${'a'.repeat(50_000)}</title></head></html>`;
    const h = extractProduct(huge, 'https://x.example/p');
    expect(h.ok ? '' : h.detail.length).toBeLessThanOrEqual(120);
  });

  it('availability words and URLs', () => {
    expect(isOutOfStock('https://schema.org/OutOfStock')).toBe(true);
    expect(isOutOfStock('InStock')).toBe(false);
    expect(isOutOfStock('http://schema.org/PreOrder')).toBe(false);
    expect(isOutOfStock(null)).toBeNull();
  });
});

describe('refusing what it cannot trust', () => {
  const base = {
    source: 'json-ld' as const,
    name: 'X',
    brand: null,
    gtin: null,
    sku: 'X1',
    mpn: null,
    category: null,
    imageUrl: null,
    url: null,
  };
  const offer = (price: unknown, currency = 'CLP') => ({
    ...base,
    offer: { price, currency, availability: null, priceValidUntil: null },
  });
  const ctx = { country: 'CL', currency: 'CLP', lastTrustedPrice: 10_000 };
  it('zero, negative, missing and another currency', () => {
    expect(judgeReading(offer('0'), ctx)).toMatchObject({ ok: false, reason: 'precio cero o negativo' });
    expect(judgeReading(offer(-5), ctx)).toMatchObject({ ok: false, reason: 'precio no válido' });
    expect(judgeReading(offer(null), ctx)).toMatchObject({ ok: false, reason: 'sin precio' });
    expect(judgeReading(offer('9990', 'USD'), ctx)).toMatchObject({ ok: false, reason: 'moneda distinta' });
  });
  it('more than 90 % below or 10 times above the last trusted price', () => {
    expect(judgeReading(offer('999'), ctx)).toMatchObject({ ok: false, reason: 'caída sospechosa' });
    expect(judgeReading(offer('1000'), ctx)).toMatchObject({ ok: true }); // exactly 90 % below is kept
    expect(judgeReading(offer('100000'), ctx)).toMatchObject({ ok: false, reason: 'alza sospechosa' });
    expect(judgeReading(offer('99999'), ctx)).toMatchObject({ ok: true });
    expect(judgeReading(offer('999'), { ...ctx, lastTrustedPrice: null })).toMatchObject({ ok: true });
  });
});

import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FeedError, type FeedItem, parseFeed, sniffDelimiter } from './parse.js';
import { currencyOf, minorToAmount, parsePrice } from './price.js';
import { rowToObservation, type SellerTerms } from './row.js';

const FIX = join(import.meta.dirname, 'fixtures');
const DEC = new Map([
  ['CLP', 0],
  ['MXN', 2],
  ['PEN', 2],
  ['USD', 2],
]);
const dec = (c: string) => DEC.get(c);
const NOW = new Date('2026-11-26T12:00:00Z');

async function collect(file: string, opts: Parameters<typeof parseFeed>[1]): Promise<FeedItem[]> {
  const out: FeedItem[] = [];
  for await (const it of parseFeed(createReadStream(join(FIX, file), { highWaterMark: 64 }), opts))
    out.push(it);
  return out;
}

function read(items: FeedItem[], terms: SellerTerms) {
  const ok: Record<string, unknown> = {};
  const rejected: { line: number; reason: string }[] = [];
  for (const it of items) {
    if (it.kind === 'error') rejected.push({ line: it.line, reason: it.error });
    if (it.kind !== 'row') continue;
    const r = rowToObservation(it.row, terms, NOW);
    if (r.ok) ok[r.obs.productId] = r.obs;
    else rejected.push({ line: it.line, reason: r.reason });
  }
  return { ok, rejected };
}

describe('parsePrice: exact, in minor units, decided by the currency', () => {
  const cases: [string, string, number | null][] = [
    ['1299990 CLP', 'CLP', 1299990],
    ['1.299.990 CLP', 'CLP', 1299990],
    ['1.299 CLP', 'CLP', 1299],
    ['1299990.00 CLP', 'CLP', 1299990],
    ['12499.00 MXN', 'MXN', 1249900],
    ['MXN 11,999.50', 'MXN', 1199950],
    ['1.299,90 PEN', 'PEN', 129990],
    ['S/ 1,299.90', 'PEN', 129990],
    ['S/. 45.50', 'PEN', 4550],
    ['0.29 USD', 'USD', 29], // 0.29 * 100 = 28.999999999999996 in floating point
    ['1299,9 PEN', 'PEN', 129990],
    ['12,5 CLP', 'CLP', null], // a fraction of a peso
    ['1,299 MXN', 'MXN', null], // thousands or decimals: ambiguous
    ['1.2.3 CLP', 'CLP', null],
    ['-5 CLP', 'CLP', null],
    ['diez CLP', 'CLP', null],
    ['5 XYZ', 'XYZ', null],
    ['12.345 USD', 'USD', null],
  ];
  for (const [text, currency, minor] of cases) {
    it(`${text} → ${minor ?? 'rechazado'}`, () => {
      const r = parsePrice(text, dec, currency);
      if (minor === null) expect(r.ok).toBe(false);
      else expect(r).toEqual({ ok: true, price: { minor, currency } });
    });
  }
  it('uses the fallback currency when the text names none, and gives amounts back exactly', () => {
    expect(currencyOf(' MXN 11,999.50')).toBe('MXN');
    expect(currencyOf('9.990 USD')).toBe('USD');
    expect(currencyOf('24.990')).toBeNull();
    expect(parsePrice('24.990', dec, 'CLP')).toEqual({ ok: true, price: { minor: 24990, currency: 'CLP' } });
    expect(minorToAmount(1249950, 2)).toBe(12499.5);
    expect(minorToAmount(29, 2)).toBe(0.29);
    expect(minorToAmount(1299990, 0)).toBe(1299990);
  });
});

describe('Merchant XML (RSS 2.0 and Atom, g: namespace), streamed in 64-byte chunks', () => {
  it('reads RSS items with line numbers; rejects wrong currency, missing price, missing id', async () => {
    const items = await collect('merchant-rss.xml', { format: 'merchant-xml' });
    const { ok, rejected } = read(items, { currency: 'CLP', decimals: DEC });
    expect(Object.keys(ok)).toEqual(['SUR-001', 'SUR-002', 'SUR-003']);
    expect(ok['SUR-001']).toMatchObject({
      name: 'Audífonos Inalámbricos Acme X1',
      url: 'https://tienda-sur.example/p/sur-001',
      imageUrl: 'https://tienda-sur.example/img/sur-001.jpg',
      normalPrice: 1299990, // not the nested g:shipping/g:price
      salePrice: null,
      ean: '7801234500011',
      sku: 'X1-BLK',
      brand: 'Acme',
      categoryPath: ['Tecnología', 'Audio', 'Audífonos'],
      stockOut: false,
    });
    expect(ok['SUR-002']).toMatchObject({ normalPrice: 89990, salePrice: 69990 });
    // sale period over: no sale; out of stock; the title is kept as text (neutralised where exported)
    expect(ok['SUR-003']).toMatchObject({ normalPrice: 1299990, salePrice: null, stockOut: true });
    expect(rejected).toEqual([
      { line: 43, reason: 'moneda USD distinta de la del eCommerce (CLP); no se convierte' },
      { line: 49, reason: 'falta el precio' },
      { line: 54, reason: 'falta el id' },
    ]);
  });

  it('reads Atom entries (link href, summary) and decimal currencies', async () => {
    const items = await collect('merchant-atom.xml', { format: 'merchant-xml' });
    const { ok, rejected } = read(items, { currency: 'MXN', decimals: DEC });
    expect(ok['MX-100']).toMatchObject({
      name: 'Licuadora Bolt 600 W',
      url: 'https://norte.example/p/mx-100',
      normalPrice: 12499,
      salePrice: 11999.5,
      ean: '0750123456789',
    });
    expect(ok['MX-102']).toMatchObject({ normalPrice: 899.9, stockOut: true });
    expect(rejected).toHaveLength(1);
    expect(rejected[0].line).toBe(17);
    expect(rejected[0].reason).toMatch(/ambiguo/);
  });

  it('fails as a whole when the file is not a feed or has no items', async () => {
    await expect(collect('not-a-feed.xml', { format: 'merchant-xml' })).rejects.toThrow(FeedError);
    await expect(collect('empty-channel.xml', { format: 'merchant-xml' })).rejects.toThrow(
      /no tiene productos/,
    );
    await expect(collect('spanish-latin1.csv', { format: 'merchant-xml' })).rejects.toThrow(FeedError);
  });
});

describe('TSV and CSV with a column mapping', () => {
  it('Merchant TSV with a BOM: short rows and bad prices rejected with their lines', async () => {
    const items = await collect('merchant.tsv', { format: 'merchant-tsv' });
    expect(items[0]).toMatchObject({ kind: 'columns', mapping: { id: 'id', price: 'price' } });
    const { ok, rejected } = read(items, { currency: 'CLP', decimals: DEC });
    expect(Object.keys(ok)).toEqual(['TSV-1', 'TSV-2']);
    expect(ok['TSV-2']).toMatchObject({ normalPrice: 15990, salePrice: 12990 });
    expect(rejected).toEqual([
      { line: 4, reason: 'disponibilidad desconocida: maybe' },
      { line: 5, reason: 'la fila tiene 3 columnas y el encabezado 9' },
      { line: 6, reason: 'precio ilegible: diez mil CLP' },
    ]);
  });

  it('Latin-1 CSV with Spanish headers and ";" mapped by hand', async () => {
    const mapping = {
      id: 'Código',
      title: 'Nombre del producto',
      price: 'Precio',
      sale_price: 'Precio oferta',
      brand: 'Marca',
      gtin: 'EAN',
      availability: 'Stock',
      product_type: 'Categoría',
    };
    const items = await collect('spanish-latin1.csv', { format: 'csv', mapping });
    const { ok, rejected } = read(items, { currency: 'CLP', decimals: DEC });
    expect(ok['CL-1']).toMatchObject({
      name: 'Cafetera Ñandú Express',
      brand: 'Ñandú',
      normalPrice: 1299990,
    });
    expect(ok['CL-2']).toMatchObject({
      name: 'Hervidor eléctrico "Pingüino"',
      normalPrice: 24990,
      salePrice: 19990,
    });
    expect(ok['CL-6']).toMatchObject({ normalPrice: 15990, stockOut: false });
    expect(rejected.map((r) => r.line)).toEqual([4, 5, 6]);
    expect(rejected[0].reason).toMatch(/más decimales/);
    expect(rejected[1].reason).toMatch(/9 columnas/);
    expect(rejected[2].reason).toMatch(/moneda USD/);
  });

  it('guesses a mapping from Spanish or Merchant headers; LatAm notations in PEN; a broken quote', async () => {
    const mapping = { id: 'sku', title: 'name', price: 'price', sale_price: 'sale' };
    const items = await collect('latam-pen.csv', { format: 'csv', mapping });
    const { ok, rejected } = read(items, { currency: 'PEN', decimals: DEC });
    expect(
      Object.fromEntries(Object.entries(ok).map(([k, o]) => [k, (o as { normalPrice: number }).normalPrice])),
    ).toEqual({
      'PE-1': 1299.9,
      'PE-2': 1299.9,
      'PE-3': 45.5,
      'PE-5': 2499,
    });
    expect(ok['PE-3']).toMatchObject({ salePrice: 39.9 });
    expect(rejected.map((r) => r.line)).toEqual([5, 7, 8]);
    expect(rejected[2].reason).toMatch(/comillas/);
  });

  it('refuses a file without the mapped columns, an empty file, and wrong UTF-8', async () => {
    await expect(
      collect('latam-pen.csv', { format: 'csv', mapping: { id: 'Código', price: 'Precio' } }),
    ).rejects.toThrow(/no tiene la columna/);
    const empty = parseFeed([Buffer.from('')], { format: 'csv' });
    await expect(empty.next()).rejects.toThrow(/vacío/);
    const latin = readFileSync(join(FIX, 'spanish-latin1.csv'));
    const strict = parseFeed([latin], { format: 'csv', encoding: 'utf-8' });
    await expect(strict.next()).rejects.toThrow(/UTF-8/);
  });

  it('sniffs the separator from the header line', () => {
    expect(sniffDelimiter('a;b;c')).toBe(';');
    expect(sniffDelimiter('a\tb,c\td')).toBe('\t');
    expect(sniffDelimiter('a,b')).toBe(',');
  });
});

import { describe, expect, it } from 'vitest';
import { gs1CheckDigit, normalizeGtin, normalizeMpn } from './gtin.js';
import { classifyScore, scoreTitles } from './score.js';
import { brandKey, singular, titleFeatures } from './title.js';
import { TrigramBlock, trigramSimilarity, trigrams } from './trigrams.js';
import { parseQuantities, quantityLabel, sameAmount } from './units.js';

describe('GTIN normalisation (check digits computed by hand)', () => {
  it('computes GS1 check digits', () => {
    // 4006381333931: 4·1+0·3+0·1+6·3+3·1+8·3+1·1+3·3+3·1+3·3+9·1+3·3 = 89 → 1
    expect(gs1CheckDigit('400638133393')).toBe(1);
    // 96385074 (GTIN-8): 9·3+6·1+3·3+8·1+5·3+0·1+7·3 = 86 → 4
    expect(gs1CheckDigit('9638507')).toBe(4);
  });
  it('pads GTIN-8/12/13/14 to 14 digits and drops extra leading zeros', () => {
    expect(normalizeGtin('4006381333931')).toBe('04006381333931');
    expect(normalizeGtin('04006381333931')).toBe('04006381333931');
    expect(normalizeGtin('0004006381333931')).toBe('04006381333931');
    expect(normalizeGtin('96385074')).toBe('00000096385074');
    expect(normalizeGtin('036000291452')).toBe('00036000291452'); // UPC-A
    expect(normalizeGtin('36000291452')).toBe('00036000291452'); // UPC-A stored as a number
    expect(normalizeGtin('400-6381 333931')).toBe('04006381333931');
  });
  it('ignores invalid codes', () => {
    expect(normalizeGtin('4006381333932')).toBeNull(); // wrong check digit
    expect(normalizeGtin('40063813330')).toBeNull(); // 11 digits: '4006381333' needs check digit 9
    expect(normalizeGtin('1234567')).toBeNull(); // too short
    expect(normalizeGtin('123456789012345')).toBeNull(); // 15 significant digits
    expect(normalizeGtin('ABC1234567890')).toBeNull();
    expect(normalizeGtin('00000000000000')).toBeNull();
    expect(normalizeGtin('')).toBeNull();
    expect(normalizeGtin(null)).toBeNull();
  });
  it('folds manufacturer part numbers', () => {
    expect(normalizeMpn('SM-A546E/DS')).toBe('sma546eds');
    expect(normalizeMpn(' wh-1000xm5 ')).toBe('wh1000xm5');
    expect(normalizeMpn('A1')).toBeNull();
  });
});

describe('quantities and units (table by hand)', () => {
  const q = (t: string) => parseQuantities(t).measures.map((m) => [m.dim, m.each, m.pack]);
  it.each([
    ['Leche Entera 1 L', [['volume', 1000, 1]]],
    ['Leche entera 1000 ml', [['volume', 1000, 1]]],
    ['Leche 1 lt', [['volume', 1000, 1]]],
    ['Aceite 1,5 L', [['volume', 1500, 1]]],
    ['Aceite 1.5L', [['volume', 1500, 1]]],
    ['Bebida 350 cc', [['volume', 350, 1]]],
    ['Vino 75 cl', [['volume', 750, 1]]],
    ['Cerveza 6 x 350 cc', [['volume', 350, 6]]],
    ['CERVEZA 6X350CC', [['volume', 350, 6]]],
    ['Cerveza Pack 6 latas 350ml', [['volume', 350, 6]]],
    ['Cerveza 350 ml x6', [['volume', 350, 6]]],
    ['Arroz 500 g', [['mass', 500, 1]]],
    ['Arroz 1 kg', [['mass', 1000, 1]]],
    ['Arroz 0,5 kg', [['mass', 500, 1]]],
    ['Azúcar 1.000 g', [['mass', 1000, 1]]],
    ['Harina 1 kilo', [['mass', 1000, 1]]],
    ['Café 170 grs', [['mass', 170, 1]]],
    ['Yogur 12 un 125 g', [['mass', 125, 12]]],
    ['Jabón pack 3 x 90 g', [['mass', 90, 3]]],
    ['Pañales x 40 un', [['count', 1, 40]]],
    ['Pañales 40 unidades', [['count', 1, 40]]],
    ['Papel higiénico pack 12', [['count', 1, 12]]],
    ['Samsung Galaxy A54 5G 128 GB', [['storage', 128, 1]]],
    ['Smart TV 55" 4K', [['inch', 55, 1]]],
    ['Smart TV 55 pulgadas', [['inch', 55, 1]]],
    ['Disco 1 TB', [['storage', 1024, 1]]],
    ['Leche entera', []],
  ])('%s', (title, expected) => {
    expect(q(title)).toEqual(expected);
  });
  it('tells equal amounts from different ones', () => {
    expect(sameAmount(1000, 1000)).toBe(true);
    expect(sameAmount(453.592, 454)).toBe(true); // 1 lb vs 454 g
    expect(sameAmount(500, 1000)).toBe(false); // 500 g ≠ 1 kg
  });
});

describe('title features', () => {
  it('folds accents and plurals, joins brand spellings, reads models and variants', () => {
    expect(singular('limones')).toBe('limon');
    expect(singular('galletas')).toBe('galleta');
    expect(brandKey('Coca-Cola')).toBe(brandKey('COCA COLA'));
    expect(brandKey('Nestlé')).toBe('nestle');
    expect(brandKey('Hewlett Packard')).toBe('hp');
    const f = titleFeatures('Samsung Galaxy SM-A546 5G 128 GB Negro', 'Samsung');
    expect(f.models).toEqual(['5g', 'sma546']);
    expect(f.variants).toEqual({ color: ['negro'] });
    expect(f.words).toEqual(['galaxy']);
    expect(titleFeatures('Leche Sin Lactosa 1 L', null).variants).toEqual({ kind: ['sinlactosa'] });
    expect(titleFeatures('Galletas de Limón', null).variants).toEqual({ flavor: ['limon'] });
    expect(titleFeatures('Black', null).variants).toEqual(titleFeatures('Negro', null).variants);
  });
});

describe('scorer: which parts agree', () => {
  const verdicts = (a: string, b: string, ba = 'Colun', bb = 'Colun') =>
    Object.fromEntries(
      scoreTitles({ title: a, brand: ba }, { title: b, brand: bb }).parts.map((p) => [p.part, p.verdict]),
    );
  it('one product, two spellings: automatic', () => {
    const s = scoreTitles(
      { title: 'Leche Entera Colun 1 L', brand: 'Colun' },
      { title: 'LECHE ENTERA 1000 ML', brand: 'COLUN' },
    );
    expect(classifyScore(s.score)).toBe('auto');
    expect(verdicts('Leche Entera Colun 1 L', 'LECHE ENTERA 1000 ML')).toMatchObject({
      brand: 'agree',
      quantity: 'agree',
      pack: 'agree',
      variant: 'agree',
      name: 'agree',
    });
    // the parts say amounts as a shopper reads them, not in the base unit
    expect(s.parts.find((p) => p.part === 'quantity')).toMatchObject({ a: '1 L', b: '1 L' });
    const fridge = scoreTitles(
      { title: 'Refrigerador Side by Side 250 L', brand: 'Polarix' },
      { title: 'Refrigerador Side by Side 250000 ml', brand: 'Polarix' },
    );
    expect(fridge.parts.find((p) => p.part === 'quantity')).toMatchObject({ a: '250 L', b: '250 L' });
  });
  it('the traps are not suggested', () => {
    const none = (a: string, b: string, ba = 'Colun', bb = 'Colun') =>
      classifyScore(scoreTitles({ title: a, brand: ba }, { title: b, brand: bb }).score);
    expect(none('Arroz Tucapel 500 g', 'Arroz Tucapel 1 kg', 'Tucapel', 'Tucapel')).toBe('none');
    expect(none('Leche Entera 1 L', 'Leche Entera 6 x 1 L')).toBe('none');
    expect(none('Leche Entera 1 L', 'Leche Descremada 1 L')).toBe('none');
    expect(none('Galaxy A54 128 GB Negro', 'Galaxy A34 128 GB Negro', 'Samsung', 'Samsung')).toBe('none');
    expect(none('Galaxy A54 128 GB Negro', 'Galaxy A54 128 GB Azul', 'Samsung', 'Samsung')).toBe('none');
    expect(none('Leche Entera 1 L', 'Leche Entera 1 L', 'Colun', 'Soprole')).toBe('none');
    expect(verdicts('Arroz 500 g', 'Arroz 1 kg').quantity).toBe('disagree');
    expect(verdicts('Leche 1 L', 'Leche 6 x 1 L').pack).toBe('disagree');
    expect(verdicts('Leche 1 L', 'Leche 1 L', 'Colun', 'Soprole').brand).toBe('disagree');
  });
  it('a variant said by one side only is suggested, never automatic', () => {
    const s = scoreTitles(
      { title: 'Arroz Integral 1 kg', brand: 'Tucapel' },
      { title: 'Arroz 1 kg', brand: 'Tucapel' },
    );
    expect(classifyScore(s.score)).toBe('suggest');
    expect(s.parts.find((p) => p.part === 'variant')).toMatchObject({
      verdict: 'missing',
      a: 'integral',
      b: '—',
    });
  });
});

describe('quantityLabel', () => {
  it.each([
    ['Cerveza 6 x 350 cc', '6 x 350 ml'],
    ['Leche 1000 ml', '1 L'],
    ['Aceite 1,5 L', '1,5 L'],
    ['Arroz 0,5 kg', '500 g'],
    ['Pañales x 40 un', '40 un'],
    ['TV 55 pulgadas', '55"'],
    ['Leche entera', null],
  ])('%s → %s', (title, label) => {
    expect(quantityLabel(title)).toBe(label);
  });
});

describe('trigram candidates (pg_trgm similarity, by hand)', () => {
  it('pads words as pg_trgm does', () => {
    // "  ab " → "  a", " ab", "ab "
    expect(trigrams('AB').sort()).toEqual(['  a', ' ab', 'ab '].sort());
    // leche entera: 6 + 7 trigrams; "leche" against itself: 1
    expect(trigrams('leche entera')).toHaveLength(13);
    expect(trigramSimilarity(trigrams('leche'), trigrams('leche'))).toBe(1);
    // "leche" {  l, le, lec, ech, che, he } vs "lecha" {  l, le, lec, ech, cha, ha }: 4 shared of 8
    expect(trigramSimilarity(trigrams('leche'), trigrams('lecha'))).toBe(0.5);
  });

  it('a block ranks by similarity then id, leaves the subject’s seller out, fills with the rest', () => {
    const block = new TrigramBlock([
      { target: { id: 30, sellerId: 1 }, title: 'lecha' },
      { target: { id: 10, sellerId: 1 }, title: 'leche' },
      { target: { id: 20, sellerId: 2 }, title: 'leche' },
      { target: { id: 40, sellerId: 1 }, title: 'yogur' },
    ]);
    const ids = (seller: number, limit: number) =>
      block.best('leche', seller, limit).map((c) => [c.target.id, c.similarity]);
    expect(ids(9, 2)).toEqual([
      [10, 1],
      [20, 1],
    ]);
    expect(ids(2, 3)).toEqual([
      [10, 1],
      [30, 0.5],
      [40, 0],
    ]);
  });

  it('a kept block brought up to date ranks as a block made anew', () => {
    const rows = [
      { target: { id: 10, sellerId: 1 }, title: 'leche entera 1 l' },
      { target: { id: 20, sellerId: 2 }, title: 'leche descremada 1 l' },
      { target: { id: 30, sellerId: 1 }, title: 'yogur frutilla' },
    ];
    const kept = new TrigramBlock(rows);
    kept.put({ id: 5, sellerId: 3 }, 'leche entera 1 l'); // an id below the others: still ranks first on ties
    kept.put({ id: 20, sellerId: 2 }, 'yogur durazno'); // a title that changed
    kept.remove(30);
    kept.put({ id: 40, sellerId: 3 }, 'queso gauda');
    const fresh = new TrigramBlock([
      { target: { id: 5, sellerId: 3 }, title: 'leche entera 1 l' },
      rows[0],
      { target: { id: 20, sellerId: 2 }, title: 'yogur durazno' },
      { target: { id: 40, sellerId: 3 }, title: 'queso gauda' },
    ]);
    const ids = (b: TrigramBlock<{ id: number; sellerId: number }>, title: string) =>
      b.best(title, 9, 10).map((c) => [c.target.id, Math.round(c.similarity * 1000) / 1000]);
    for (const title of ['leche entera 1 l', 'yogur', 'gauda', 'nada'])
      expect(ids(kept, title), title).toEqual(ids(fresh, title));
    expect(kept.size).toBe(4);
    expect(kept.has(30)).toBe(false);
    // 5 and 10 equal the subject (1), id order; 20 no shared trigram: filled in id order (5, 10 taken)
    expect(ids(kept, 'leche entera 1 l').map(([i]) => i)).toEqual([5, 10, 20, 40]);
    // what `accept` refuses is passed over, and the next one comes instead
    expect(kept.best('leche entera 1 l', 9, 2, (t) => t.id !== 5).map((c) => c.target.id)).toEqual([10, 20]);
  });
});

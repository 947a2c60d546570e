import { describe, expect, it } from 'vitest';
import {
  calendarDay,
  intIn,
  knownWhenLoaded,
  numberIn,
  readUrlSort,
  unknownParamsNotice,
  writeUrlSort,
} from './url-state.js';

const cols = ['name', 'products', 'index'] as const;
const fallback = { by: 'products' as const, dir: 'desc' as const };

describe('table sort in the URL', () => {
  it('reads a known column and direction, and falls back on anything else', () => {
    expect(readUrlSort(new URLSearchParams('sort=index&order=asc'), cols, fallback)).toEqual({
      by: 'index',
      dir: 'asc',
    });
    expect(readUrlSort(new URLSearchParams('sort=price&order=up'), cols, fallback)).toEqual(fallback);
  });
  it('writes next to the other keys and leaves the default out', () => {
    const p = new URLSearchParams('brands=18');
    const written = writeUrlSort(p, { by: 'name', dir: 'asc' }, fallback);
    expect(written.toString()).toBe('brands=18&sort=name&order=asc');
    expect(writeUrlSort(written, fallback, fallback).toString()).toBe('brands=18');
  });
});

describe('URL values a screen does not offer (issue 31 item 8)', () => {
  it('names each value and its key', () => {
    expect(unknownParamsNotice([{ key: 'days', raw: '45' }])).toBe(
      'Se ignoró «45» en la dirección (days): no es una opción de esta pantalla.',
    );
    expect(
      unknownParamsNotice([
        { key: 'ns', raw: 'nada' },
        { key: 'pagina', raw: '-3' },
      ]),
    ).toBe('Se ignoraron en la dirección «nada» (ns), «-3» (pagina): no son opciones de esta pantalla.');
  });

  it('judges the shared kinds of value: whole numbers, days, numbers with a comma, loaded options', () => {
    const page = intIn('page', 0, 100);
    expect(['0', '7', '100'].map(page.ok)).toEqual([true, true, true]);
    expect(['-1', '101', '07', '3.0', 'x', ''].map(page.ok)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    const day = calendarDay('from');
    expect(['2026-02-28', '2024-02-29'].map(day.ok)).toEqual([true, true]);
    expect(['2026-02-30', '28-02-2026', '2026-2-1', ''].map(day.ok)).toEqual([false, false, false, false]);
    const pct = numberIn('minSimilarity', 0, 100);
    expect(['0', '97', '97,5', '97.5', '100'].map(pct.ok)).toEqual([true, true, true, true, true]);
    expect(['120', '-1', '100,01', 'abc', '9e1', ''].map(pct.ok)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(knownWhenLoaded('brand', null).ok('999')).toBe(true); // not judged while loading
    expect(knownWhenLoaded('brand', ['3', '5']).ok('5')).toBe(true);
    expect(knownWhenLoaded('brand', ['3', '5']).ok('999')).toBe(false);
  });
});

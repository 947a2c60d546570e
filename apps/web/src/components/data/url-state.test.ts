import { describe, expect, it } from 'vitest';
import { readUrlSort, unknownParamsNotice, writeUrlSort } from './url-state.js';

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
});

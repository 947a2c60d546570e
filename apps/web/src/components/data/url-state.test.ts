import { describe, expect, it } from 'vitest';
import { readUrlSort, writeUrlSort } from './url-state.js';

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

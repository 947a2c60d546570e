import { describe, expect, it } from 'vitest';
import { coveredByAncestor, filterTreeOptions, flattenTree, toggleTreeSelection } from './tree-options.js';

const tree = [
  {
    id: 1,
    name: 'Electrohogar',
    children: [
      { id: 2, name: 'Refrigeración', children: [{ id: 3, name: 'Refrigeradores', children: [] }] },
      { id: 4, name: 'Lavado', children: [] },
    ],
  },
  { id: 5, name: 'Tecnología', children: [{ id: 6, name: 'Televisores', children: [] }] },
];

describe('flattenTree', () => {
  it('lists parents before children with depth, path and ancestors', () => {
    const flat = flattenTree(tree);
    expect(flat.map((o) => o.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(flat[2]).toMatchObject({
      depth: 2,
      path: 'Electrohogar > Refrigeración > Refrigeradores',
      ancestors: [1, 2],
    });
  });
});

describe('filterTreeOptions', () => {
  const flat = flattenTree(tree);
  it('matches without accents and keeps the ancestors', () => {
    expect(filterTreeOptions(flat, 'refrigeracion').map((o) => o.id)).toEqual([1, 2, 3]);
    expect(filterTreeOptions(flat, 'tele').map((o) => o.id)).toEqual([5, 6]);
  });
  it('returns everything (up to the limit) for empty text', () => {
    expect(filterTreeOptions(flat, '  ')).toHaveLength(6);
    expect(filterTreeOptions(flat, '', 2)).toHaveLength(2);
  });
});

describe('toggleTreeSelection', () => {
  const flat = flattenTree(tree);
  it('selecting a parent drops its selected descendants', () => {
    expect(toggleTreeSelection(flat, [3, 6], 1)).toEqual([6, 1]);
  });
  it('unselects', () => {
    expect(toggleTreeSelection(flat, [3, 6], 3)).toEqual([6]);
  });
  it('knows covered nodes', () => {
    expect(coveredByAncestor(flat[2], new Set([1]))).toBe(true);
    expect(coveredByAncestor(flat[2], new Set([4]))).toBe(false);
  });
});

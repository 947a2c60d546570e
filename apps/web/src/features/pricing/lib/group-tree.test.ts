import type { DpmGroup } from '@vigia/domain';
import { describe, expect, it } from 'vitest';
import { buildGroupTree, narrowedClassifications } from './group-tree.js';

const g = (id: number, parent_id: number | null, path: number[]): DpmGroup => ({
  id,
  name: `C${id}`,
  parent_id,
  path,
  level: path.length,
  products: 1,
  total: 1,
  match: 0,
  publishedMatch: 0,
  normal: 1,
  sale: 0,
  exclusive: 0,
  stock_out: 0,
  cheapest: 0,
  in_range: 0,
  dearer: 0,
  without_index: 1,
  average_index: null,
  match_pct: 0,
});

const groups = [g(1, null, [1]), g(2, 1, [1, 2]), g(3, 2, [1, 2, 3]), g(4, 1, [1, 4]), g(9, 8, [8, 9])];
const byId = new Map(groups.map((x) => [x.id, x]));

describe('buildGroupTree', () => {
  it('nests children under parents; orphans become roots', () => {
    const roots = buildGroupTree(groups);
    expect(roots.map((r) => r.group.id)).toEqual([1, 9]);
    expect(roots[0].children.map((c) => c.group.id)).toEqual([2, 4]);
    expect(roots[0].children[0].children[0]).toMatchObject({ depth: 2 });
  });
});

describe('narrowedClassifications', () => {
  it('is the node without a selection or when an ancestor is selected', () => {
    expect(narrowedClassifications(byId.get(2)!, [], byId)).toEqual([2]);
    expect(narrowedClassifications(byId.get(3)!, [1], byId)).toEqual([3]);
  });
  it('keeps the narrower picks inside the node', () => {
    expect(narrowedClassifications(byId.get(1)!, [3, 9], byId)).toEqual([3]);
  });
});

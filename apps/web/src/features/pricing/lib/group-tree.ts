import type { DpmGroup } from '@vigia/domain';

// DPM by classification answers every node of the tree (all levels, with parent_id and path); the screen
// shows it as a tree: roots first, children under their parent, each level in the answer's order.

export interface GroupNode {
  group: DpmGroup;
  children: GroupNode[];
  depth: number;
}

export function buildGroupTree(groups: readonly DpmGroup[]): GroupNode[] {
  const ids = new Set(groups.map((g) => g.id));
  const nodes = new Map<number, GroupNode>();
  for (const g of groups) nodes.set(g.id, { group: g, children: [], depth: 0 });
  const roots: GroupNode[] = [];
  for (const g of groups) {
    const node = nodes.get(g.id) as GroupNode;
    const parent =
      g.parent_id !== null && g.parent_id !== undefined && ids.has(g.parent_id)
        ? nodes.get(g.parent_id)
        : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  const setDepth = (n: GroupNode, d: number) => {
    n.depth = d;
    for (const c of n.children) setDepth(c, d + 1);
  };
  for (const r of roots) setDepth(r, 0);
  return roots;
}

/**
 * The classification ids whose products a node's drill-down shows: the node itself, unless the user
 * picked narrower classifications inside it — then those (a node selects its subtree on the server).
 */
export function narrowedClassifications(
  node: DpmGroup,
  selected: readonly number[],
  byId: ReadonlyMap<number, DpmGroup>,
): number[] {
  if (!selected.length) return [node.id];
  const nodePath = node.path ?? [node.id];
  // A selected ancestor (or the node itself) already covers the whole node.
  if (selected.some((s) => nodePath.includes(s))) return [node.id];
  const inside = selected.filter((s) => byId.get(s)?.path?.includes(node.id));
  return inside.length ? inside : [node.id];
}

import { BREADCRUMB_SEPARATOR, foldText } from '@vigia/domain';

// Trees (v2_classification, v2_category_tree) shown as an indented, searchable multi-select. Selecting a
// node selects its whole subtree on the server, so a selected node's descendants are shown as covered.

export interface TreeNodeLike {
  id: number;
  name: string;
  children: TreeNodeLike[];
}

export interface TreeOption {
  id: number;
  name: string;
  /** 0 for roots. */
  depth: number;
  /** 'Root > Child > Node' */
  path: string;
  /** Ids of the ancestors, root first. */
  ancestors: number[];
  /** Optional grouping label (e.g. the seller of a category tree). */
  group?: string;
}

/** Depth-first flattening, parents before children, siblings in the given order. */
export function flattenTree<N extends TreeNodeLike>(
  roots: readonly N[],
  groupOf?: (root: N) => string | undefined,
): TreeOption[] {
  const out: TreeOption[] = [];
  const walk = (node: TreeNodeLike, depth: number, ancestors: number[], names: string[], group?: string) => {
    const path = [...names, node.name];
    out.push({
      id: node.id,
      name: node.name,
      depth,
      path: path.join(BREADCRUMB_SEPARATOR),
      ancestors,
      group,
    });
    for (const child of node.children ?? []) walk(child, depth + 1, [...ancestors, node.id], path, group);
  };
  for (const root of roots) walk(root, 0, [], [], groupOf?.(root));
  return out;
}

// accent- and case-insensitive: the domain's one search normalisation
const fold = foldText;

/**
 * Options matching a text (accent- and case-insensitive, every word somewhere in the path), with the
 * ancestors of each match kept so the tree still reads; at most `limit` options.
 */
export function filterTreeOptions(options: readonly TreeOption[], text: string, limit = 300): TreeOption[] {
  const words = fold(text).split(/\s+/).filter(Boolean);
  if (!words.length) return options.slice(0, limit);
  const byId = new Map(options.map((o) => [o.id, o]));
  const keep = new Set<number>();
  for (const o of options) {
    const hay = fold(o.path);
    if (words.every((w) => hay.includes(w))) {
      keep.add(o.id);
      for (const a of o.ancestors) keep.add(a);
    }
  }
  return options.filter((o) => keep.has(o.id) && byId.has(o.id)).slice(0, limit);
}

/** True when one of the node's ancestors is selected (the node is then already included). */
export function coveredByAncestor(option: TreeOption, selected: ReadonlySet<number>): boolean {
  return option.ancestors.some((a) => selected.has(a));
}

/**
 * Toggles a node: selecting it drops its selected descendants (the node covers them); unselecting
 * simply removes it.
 */
export function toggleTreeSelection(
  options: readonly TreeOption[],
  selected: readonly number[],
  id: number,
): number[] {
  if (selected.includes(id)) return selected.filter((s) => s !== id);
  const descendants = new Set(options.filter((o) => o.ancestors.includes(id)).map((o) => o.id));
  return [...selected.filter((s) => !descendants.has(s)), id];
}

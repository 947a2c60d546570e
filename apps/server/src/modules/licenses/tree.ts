/** A flat row of a tree table (classifications, categories). */
export interface FlatNode {
  id: number;
  parent_id: number | null;
}

export type Nested<T extends FlatNode> = T & { children: Nested<T>[] };

/**
 * Nests flat rows into trees. Roots are the rows whose parent is not among the rows (a licensed subtree
 * starts below the real root). Children keep the order of the input.
 */
export function buildTree<T extends FlatNode>(rows: T[]): Nested<T>[] {
  const byId = new Map<number, Nested<T>>();
  for (const row of rows) byId.set(row.id, { ...row, children: [] });
  const roots: Nested<T>[] = [];
  for (const row of rows) {
    const node = byId.get(row.id)!;
    const parent = row.parent_id !== null ? byId.get(row.parent_id) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

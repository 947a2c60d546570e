// Small integer codes for repeated strings (pricing's currencies and price types, the saved model's tables).

/** The code of a value in `table` (appended when new): repeated values as small indexes. */
export function coder(table: string[]): (v: string) => number {
  const index = new Map(table.map((v, i) => [v, i]));
  return (v) => {
    let i = index.get(v);
    if (i === undefined) {
      i = table.push(v) - 1;
      index.set(v, i);
    }
    return i;
  };
}

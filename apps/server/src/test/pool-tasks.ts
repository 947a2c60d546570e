// Tasks for the worker-pool tests (platform/pool/pool.test.ts), run in pool threads.

export function double(n: number): number {
  return n * 2;
}

/** Keeps its thread busy for `ms` (a CPU-bound task), then answers `n`. */
export function spin(ms: number, n = 0): number {
  const until = Date.now() + ms;
  while (Date.now() < until) {}
  return n;
}

/** Ends its own thread the first time it runs in it (`flag` is shared memory), answers on the second. */
export function crashOnce(flag: Int32Array): string {
  if (Atomics.add(flag, 0, 1) === 0) process.exit(7);
  return 'again';
}

/** Ends its thread every time. */
export function crash(): never {
  process.exit(9);
}

/** Holds `mb` megabytes of live objects (beyond a small heap cap: out of memory). */
export function allocate(mb: number): number {
  const keep: number[][] = [];
  for (let i = 0; i < mb * 16; i++) keep.push(Array.from({ length: 8192 }, (_, k) => k + i));
  return keep.length;
}

/** A file-like answer: `n` bytes of `fill`. */
export function bytes(n: number, fill: number): Buffer {
  return Buffer.alloc(n, fill);
}

/** Sums a column that arrives as shared memory, and marks that it saw it (no copy: the caller sees it). */
export function sumShared(column: Float64Array): number {
  let s = 0;
  for (let i = 0; i < column.length; i++) s += column[i];
  column[0] = -1;
  return s;
}

export function fails(message: string): never {
  throw new Error(message);
}

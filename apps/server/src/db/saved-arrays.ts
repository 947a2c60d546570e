import { type Queryable, queryOwnClient } from './database.js';

// A read model saved whole in one bytea value (issue 30, cold start: pricing/snapshot.ts, migration 501;
// dashboard/history-snapshot.ts, migration 511) — a JSON header and typed arrays — and read back in slices.
//
// Layout: a 4-character magic, the header's length (4 bytes, little-endian), the header as JSON (the
// caller's fields, then `arrays`: each array's name, kind, offset and length), then the typed arrays, each
// at an offset (from the first byte after the header, itself rounded up to a multiple of 8) that is a
// multiple of 8. The arrays' bytes are those of the machine that saved them: little-endian on every
// machine the server runs on (x86-64, arm64); a big-endian one would read them wrong.

export type Typed = Int32Array | Int16Array | Uint8Array | Float64Array;
const KINDS = { Int32Array, Int16Array, Uint8Array, Float64Array } as const;
/** An array's kind as saved (its constructor's name). */
export type SavedKind = keyof typeof KINDS;
type Kind = SavedKind;

interface Place {
  name: string;
  kind: Kind;
  offset: number;
  length: number;
}

/** Slices of a saved value read at a time (readSaved). */
export const SLICE = 1 << 20;

/** `header` (JSON) and `arrays` (in their order) as saved bytes behind `magic` (4 latin-1 characters). */
export function encodeSaved(magic: string, header: object, arrays: [string, Typed][]): Buffer {
  const places: Place[] = [];
  let offset = 0;
  for (const [name, a] of arrays) {
    places.push({ name, kind: a.constructor.name as Kind, offset, length: a.length });
    offset += Math.ceil(a.byteLength / 8) * 8;
  }
  const json = Buffer.from(JSON.stringify({ ...header, arrays: places }), 'utf8');
  const start = Math.ceil((8 + json.length) / 8) * 8;
  const out = Buffer.alloc(start + offset);
  out.write(magic, 0, 'latin1');
  out.writeUInt32LE(json.length, 4);
  json.copy(out, 8);
  for (const [i, [, a]] of arrays.entries())
    Buffer.from(a.buffer, a.byteOffset, a.byteLength).copy(out, start + places[i].offset);
  return out;
}

/**
 * Saved bytes → the header and every array `kinds` names (each in an ArrayBuffer of its own); null when
 * they are not a value saved behind `magic`, are cut short, lack one of those arrays, or hold an array
 * `kinds` does not name or of another kind (a value saved by another version of the read model).
 */
export function decodeSaved<H, N extends string>(
  buf: Buffer,
  magic: string,
  kinds: Readonly<Record<N, SavedKind>>,
): { header: H; arrays: Record<N, Typed> } | null {
  const names = Object.keys(kinds) as N[];
  if (buf.length < 8 || buf.toString('latin1', 0, 4) !== magic) return null;
  const len = buf.readUInt32LE(4);
  if (8 + len > buf.length) return null;
  let header: H & { arrays?: Place[] };
  try {
    header = JSON.parse(buf.toString('utf8', 8, 8 + len));
  } catch {
    return null;
  }
  if (!Array.isArray(header?.arrays)) return null;
  const start = Math.ceil((8 + len) / 8) * 8;
  const arrays = {} as Record<N, Typed>;
  for (const a of header.arrays) {
    const expected = Object.hasOwn(kinds, a.name) ? kinds[a.name as N] : undefined;
    if (expected === undefined || a.kind !== expected) return null;
    const Kind = KINDS[expected];
    const from = start + a.offset;
    const bytes = a.length * Kind.BYTES_PER_ELEMENT;
    if (!(from >= start && from + bytes <= buf.length)) return null;
    // a copy into an ArrayBuffer of its own: the bytes of a database answer need not be aligned
    const own = new Uint8Array(bytes);
    own.set(buf.subarray(from, from + bytes));
    arrays[a.name as N] = new Kind(own.buffer);
  }
  if (names.some((n) => !arrays[n])) return null;
  return { header, arrays };
}

/**
 * The saved value that `source` selects (one row, its one column `data`: a bytea stored uncompressed),
 * decoded; null when `source` selects none, `decode` refuses it, or the read fails (`onError` told). Read in
 * slices of `slice` bytes (PostgreSQL reads only each slice's part): one 48 MB value takes ~0.6 s through
 * the driver's one message, 1 MiB slices ~0.2 s (large market, 2026-11-29). `source`'s parameters are
 * `values`.
 */
export async function readSaved<T>(
  db: Queryable,
  q: { source: string; values: unknown[]; slice?: number },
  decode: (data: Buffer) => T | null,
  onError: (err: unknown) => void,
): Promise<T | null> {
  const slice = q.slice ?? SLICE;
  const n = `$${q.values.length + 1}::int`;
  try {
    const { rows } = await queryOwnClient<[Buffer]>(db, {
      text: `select substring(s.data from k * ${n} + 1 for ${n})
               from (${q.source}) s
              cross join generate_series(0, (length(s.data) - 1) / ${n}) k
              order by k`,
      values: [...q.values, slice],
      rowMode: 'array',
    });
    return rows.length ? decode(Buffer.concat(rows.map((r) => r[0]))) : null;
  } catch (err) {
    onError(err);
    return null;
  }
}

import pg from 'pg';
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
 * A saved value as read: its bytes, or (readSaved) apart — `head` the bytes up to the arrays (magic, length,
 * header; all of them when that length is not readable) and `body` the arrays' bytes, in an ArrayBuffer of
 * their own.
 */
export type SavedBytes = Buffer | { head: Buffer; body: Uint8Array };

/** Where the arrays start in a value whose first 8 bytes are `first` (magic, header length); null: not one. */
function arraysStart(first: Buffer, magic: string): number | null {
  if (first.length < 8 || first.toString('latin1', 0, 4) !== magic) return null;
  return Math.ceil((8 + first.readUInt32LE(4)) / 8) * 8;
}

/**
 * Saved bytes → the header and every array `kinds` names; null when they are not a value saved behind
 * `magic`, are cut short, lack one of those arrays, or hold an array `kinds` does not name or of another
 * kind (a value saved by another version of the read model). The arrays are views of one ArrayBuffer that
 * holds only them (the header's bytes are not kept alive with them): the body readSaved read them into
 * (no copy: on the large market the copies, each page of fresh memory touched twice, were ~0.45 s of a
 * cold start's first answers), or a copy of a whole value's.
 */
export function decodeSaved<H, N extends string>(
  value: SavedBytes,
  magic: string,
  kinds: Readonly<Record<N, SavedKind>>,
): { header: H; arrays: Record<N, Typed> } | null {
  const names = Object.keys(kinds) as N[];
  const head = Buffer.isBuffer(value) ? value : value.head;
  const start = arraysStart(head, magic);
  if (start === null) return null;
  const len = head.readUInt32LE(4);
  if (8 + len > head.length) return null;
  let body: Uint8Array;
  if (Buffer.isBuffer(value)) {
    if (start > value.length) return null;
    // a copy into an ArrayBuffer of its own: the bytes of a database answer need not be aligned
    body = new Uint8Array(value.length - start);
    body.set(value.subarray(start));
  } else {
    if (head.length !== start) return null;
    body = value.body;
  }
  let header: H & { arrays?: Place[] };
  try {
    header = JSON.parse(head.toString('utf8', 8, 8 + len));
  } catch {
    return null;
  }
  if (!Array.isArray(header?.arrays)) return null;
  const arrays = {} as Record<N, Typed>;
  for (const a of header.arrays) {
    const expected = Object.hasOwn(kinds, a.name) ? kinds[a.name as N] : undefined;
    if (expected === undefined || a.kind !== expected) return null;
    const Kind = KINDS[expected];
    const from = body.byteOffset + a.offset;
    const bytes = a.length * Kind.BYTES_PER_ELEMENT;
    if (!(a.offset >= 0 && a.offset % 8 === 0 && a.offset + bytes <= body.length)) return null;
    arrays[a.name as N] = new Kind(body.buffer as ArrayBuffer, from, a.length);
  }
  if (names.some((n) => !arrays[n])) return null;
  return { header, arrays };
}

/** bytea read as the text PostgreSQL sends (hex: `\x…`), not turned into a Buffer by the driver. */
const BYTEA = 17;
const byteaAsText: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === BYTEA
      ? (v: string) => v
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};
const parseBytea = pg.types.getTypeParser(BYTEA, 'text') as (v: string) => Buffer;

/**
 * The slices (bytea text) as SavedBytes: each slice's hex written straight into the head or the body (a
 * slice may straddle them), no Buffer per slice and no concatenation. A slice in another output format
 * (bytea_output = escape) goes through the driver's parser.
 */
function assemble(slices: string[], magic: string): SavedBytes {
  const bytes = slices.map((h) => (h.startsWith('\\x') ? null : parseBytea(h)));
  const lengths = slices.map((h, i) => bytes[i]?.length ?? (h.length - 2) / 2);
  const total = lengths.reduce((n, l) => n + l, 0);
  const firstBytes = (n: number) => {
    const out = Buffer.alloc(Math.min(n, total));
    let at = 0;
    for (let i = 0; i < slices.length && at < out.length; i++) at += put(i, out, at, 0, out.length - at);
    return out;
  };
  // writes slice i's bytes [from, from + n) into `out` at `at`; the count written
  const put = (i: number, out: Buffer, at: number, from: number, n: number): number => {
    const k = Math.min(n, lengths[i] - from);
    if (k <= 0) return 0;
    const b = bytes[i];
    if (b) b.copy(out, at, from, from + k);
    else out.write(slices[i].substring(2 + 2 * from, 2 + 2 * (from + k)), at, k, 'hex');
    return k;
  };
  const start = Math.min(arraysStart(firstBytes(8), magic) ?? total, total);
  const head = Buffer.alloc(start);
  const body = new Uint8Array(total - start);
  const bodyBuf = Buffer.from(body.buffer);
  let pos = 0;
  for (let i = 0; i < slices.length; i++) {
    const end = pos + lengths[i];
    if (pos < start) put(i, head, pos, 0, Math.min(end, start) - pos);
    if (end > start)
      put(i, bodyBuf, Math.max(pos, start) - start, Math.max(0, start - pos), end - Math.max(pos, start));
    pos = end;
  }
  return { head, body };
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
  q: { source: string; values: unknown[]; slice?: number; magic: string },
  decode: (data: SavedBytes) => T | null,
  onError: (err: unknown) => void,
): Promise<T | null> {
  const slice = q.slice ?? SLICE;
  const n = `$${q.values.length + 1}::int`;
  try {
    const { rows } = await queryOwnClient<[string]>(db, {
      text: `select substring(s.data from k * ${n} + 1 for ${n})
               from (${q.source}) s
              cross join generate_series(0, (length(s.data) - 1) / ${n}) k
              order by k`,
      values: [...q.values, slice],
      rowMode: 'array',
      types: byteaAsText,
    });
    return rows.length
      ? decode(
          assemble(
            rows.map((r) => r[0]),
            q.magic,
          ),
        )
      : null;
  } catch (err) {
    onError(err);
    return null;
  }
}

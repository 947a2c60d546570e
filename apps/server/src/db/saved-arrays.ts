import { copyOut, withLiterals } from './copy-out.js';
import { type Queryable, withOwnClient } from './database.js';

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

/**
 * Slices of a saved value read at a time (readSaved): each is one CopyData message. 64 KiB, the size of the
 * socket's reads: the driver's parser gathers a message that spans reads into a buffer it grows by
 * doubling, so each 1 MiB slice (until 2026-11-30) cost ~4 MB of fresh memory and two more copies of its
 * bytes: the parser's merging was 0.33 s of the main thread in a large cold start's first 4.6 s (CPU
 * profile), and the 49 MB saved pricing model of pivot 116 read in 0.9–1.3 s with 1 MiB slices against
 * 0.4–0.6 s with 64 KiB ones (a busy machine, alternated). A page's first touch is slow on this machine
 * (docs/operations.md "Memory").
 */
export const SLICE = 1 << 16;

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

/** The binary COPY format's signature (11 bytes), then its flags and its header extension's length. */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

type Step = 'signature' | 'extension' | 'fields' | 'length' | 'k' | 'total' | 'data' | 'done';

/**
 * The slices of a saved value as a binary COPY sends them — rows (k, the value's length, the bytes of
 * slice k: [k × slice, (k + 1) × slice)) in CopyData chunks cut anywhere — placed straight into the value's
 * head and body as they arrive (`write` each chunk, then `end`): each byte is copied once, from the
 * driver's buffer to its place. Until the value's first 8 bytes (magic and header length: where the body
 * starts) have arrived, the bytes are kept aside (copies): with slices in order, only slice 0's first piece.
 * Throws on anything that is not such a COPY, or bytes missing at the end.
 */
export class SavedSink {
  private step: Step = 'signature';
  /** the small item being gathered (signature, counts, lengths, k, total) */
  private small = Buffer.alloc(19);
  private smallLen = 0;
  private need = 19;
  private field = 0;
  private fieldLen = 0;
  private k = 0;
  private total = -1;
  /** bytes of the current slice placed, and of all slices */
  private got = 0;
  private placed = 0;
  private rows = 0;
  private head: Buffer | null = null;
  private body: Uint8Array | null = null;
  private bodyBuf: Buffer | null = null;
  private start = 0;
  private aside: { at: number; bytes: Buffer }[] = [];

  constructor(
    private readonly slice: number,
    private readonly magic: string,
  ) {}

  private fail(why: string): never {
    throw new Error(`COPY binario de un valor guardado ilegible: ${why}`);
  }

  write(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.step === 'done') this.fail('datos tras el final');
      if (this.step === 'data') {
        const n = Math.min(this.fieldLen - this.got, chunk.length - at);
        this.place(this.k * this.slice + this.got, chunk.subarray(at, at + n));
        at += n;
        this.got += n;
        if (this.got === this.fieldLen) this.next();
        continue;
      }
      const n = Math.min(this.need - this.smallLen, chunk.length - at);
      chunk.copy(this.small, this.smallLen, at, at + n);
      this.smallLen += n;
      at += n;
      if (this.smallLen === this.need) this.item();
    }
  }

  /** A small item is complete: read it, and say what comes next. */
  private item(): void {
    const b = this.small;
    const expect = (need: number, step: Step) => {
      this.step = step;
      this.need = need;
      this.smallLen = 0;
    };
    switch (this.step) {
      case 'signature': {
        if (!b.subarray(0, 11).equals(SIGNATURE)) this.fail('sin firma');
        const ext = b.readInt32BE(15);
        if (ext < 0 || ext > 1 << 16) this.fail('cabecera');
        if (ext > 0) {
          this.small = Buffer.alloc(Math.max(19, ext));
          expect(ext, 'extension');
        } else expect(2, 'fields');
        return;
      }
      case 'extension':
        expect(2, 'fields');
        return;
      case 'fields': {
        const n = b.readInt16BE(0);
        if (n === -1) {
          expect(0, 'done');
          return;
        }
        if (n !== 3) this.fail(`${n} campos`);
        this.field = 0;
        expect(4, 'length');
        return;
      }
      case 'length': {
        const len = b.readInt32BE(0);
        if (this.field < 2) {
          if (len !== 4) this.fail('entero');
          expect(4, this.field === 0 ? 'k' : 'total');
          return;
        }
        if (len < 0) this.fail('porción nula');
        this.fieldLen = len;
        this.got = 0;
        this.step = 'data';
        if (len === 0) this.next();
        return;
      }
      case 'k':
      case 'total': {
        const v = b.readInt32BE(0);
        if (this.step === 'k') this.k = v;
        else {
          if (v < 0 || (this.total >= 0 && v !== this.total)) this.fail('largo');
          this.total = v;
          this.tryLayout();
        }
        this.field++;
        expect(4, 'length');
        return;
      }
      default:
        this.fail(this.step);
    }
  }

  /** The current slice is complete. */
  private next(): void {
    if (this.k < 0 || this.k * this.slice + this.fieldLen > this.total) this.fail('porción fuera del valor');
    this.rows++;
    this.step = 'fields';
    this.need = 2;
    this.smallLen = 0;
  }

  /** Bytes [at, at + bytes.length) of the value: to the head or the body, or aside until they are known. */
  private place(at: number, bytes: Buffer): void {
    this.placed += bytes.length;
    const head = this.head;
    const body = this.bodyBuf;
    if (!head || !body) {
      this.aside.push({ at, bytes: Buffer.from(bytes) });
      this.tryLayout();
      return;
    }
    const end = at + bytes.length;
    if (at < this.start) bytes.copy(head, at, 0, Math.min(end, this.start) - at);
    if (end > this.start)
      bytes.copy(body, Math.max(at, this.start) - this.start, Math.max(0, this.start - at));
  }

  /** Once the value's length and its first 8 bytes are known: its head and body, the bytes aside placed. */
  private tryLayout(): void {
    if (this.head || this.total < 0) return;
    const first = Buffer.alloc(Math.min(8, this.total));
    let covered = 0;
    for (const { at, bytes } of this.aside)
      if (at < first.length) covered += bytes.copy(first, at, 0, Math.min(bytes.length, first.length - at));
    if (covered < first.length) return;
    this.start = Math.min(arraysStart(first, this.magic) ?? this.total, this.total);
    this.head = Buffer.alloc(this.start);
    this.body = new Uint8Array(this.total - this.start);
    this.bodyBuf = Buffer.from(this.body.buffer);
    const aside = this.aside;
    this.aside = [];
    this.placed -= aside.reduce((n, x) => n + x.bytes.length, 0);
    for (const { at, bytes } of aside) this.place(at, bytes);
  }

  /** The value (null: the source selected no row). */
  end(): SavedBytes | null {
    if (this.step !== 'done') this.fail('sin fin');
    if (!this.rows) return null;
    if (!this.head || !this.body || this.placed !== this.total) this.fail('porciones que faltan');
    return { head: this.head, body: this.body };
  }
}

/**
 * The saved value that `source` selects (one row, its one column `data`: a bytea stored uncompressed),
 * decoded; null when `source` selects none, `decode` refuses it, or the read fails (`onError` told). Read
 * in slices of `slice` bytes (PostgreSQL reads only each slice's part) through a binary COPY: the bytes
 * arrive as they are. Before (issue 30, seventh session), a query's answer came as hex text that the
 * driver decoded to a string and then to bytes — ~20 ms of the Node thread per MB, ~3.5 s of a cold start
 * of the large market — and an `order by` of the slices made PostgreSQL sort the whole value into a
 * temporary file before sending any. `source`'s parameters are `values` (numbers, strings, Buffers:
 * written as literals, COPY takes none).
 */
export async function readSaved<T>(
  db: Queryable,
  q: { source: string; values: unknown[]; slice?: number; magic: string },
  decode: (data: SavedBytes) => T | null,
  onError: (err: unknown) => void,
): Promise<T | null> {
  const slice = q.slice ?? SLICE;
  if (!Number.isInteger(slice) || slice < 1) throw new Error(`slice: ${slice}`);
  try {
    return await withOwnClient(db, async (client) => {
      // the slices in any order (no `order by`: see above), each placed where it belongs (SavedSink)
      const sink = new SavedSink(slice, q.magic);
      await copyOut(
        client,
        `copy (select k, length(s.data), substring(s.data from k * ${slice} + 1 for ${slice})
                 from (${withLiterals(client, q.source, q.values)}) s
                cross join generate_series(0, (length(s.data) - 1) / ${slice}) k) to stdout (format binary)`,
        (chunk) => sink.write(chunk),
      );
      const value = sink.end();
      return value && decode(value);
    });
  } catch (err) {
    onError(err);
    return null;
  }
}

import { describe, expect, inject, it } from 'vitest';
import { copyOut, withLiterals } from './copy-out.js';
import { createPool } from './database.js';
import { decodeSaved, encodeSaved, readSaved, type SavedKind, SavedSink } from './saved-arrays.js';

// A read model saved whole in one bytea value and read back in slices through a binary COPY
// (pricing/snapshot.ts, dashboard/history-snapshot.ts): each slice's bytes are written straight into the
// header's bytes or the arrays' (a slice may straddle them), whatever the session's bytea output, and the
// arrays are views of one buffer that holds only them.

const MAGIC = 'TST1';
const KINDS: Record<'a' | 'b' | 'c', SavedKind> = { a: 'Int32Array', b: 'Float64Array', c: 'Uint8Array' };
const a = Int32Array.from([1, -2, 3, 2_000_000_000]);
const b = Float64Array.from([0.5, Number.NaN, -1e300]);
const c = Uint8Array.from([7, 0, 255]);
const bytes = encodeSaved(MAGIC, { x: 'ñandú', n: 3 }, [
  ['a', a],
  ['b', b],
  ['c', c],
]);
/** Where the arrays start: after the magic, the header's length and the header, rounded up to 8. */
const start = Math.ceil((8 + bytes.readUInt32LE(4)) / 8) * 8;

describe('readSaved', () => {
  it('reads the value back in slices of any size, in hex and escape output, the arrays apart from the header', async () => {
    const pool = createPool(inject('pgAppUrl'), 2);
    const client = await pool.connect();
    try {
      for (const output of ['hex', 'escape']) {
        await client.query(`set bytea_output = ${output}`);
        for (const slice of [3, 7, start, start + 1, 64, 1 << 20]) {
          const got = await readSaved(
            client,
            { source: 'select $1::bytea as data', values: [bytes], slice, magic: MAGIC },
            (d) => decodeSaved<{ x: string; n: number }, 'a' | 'b' | 'c'>(d, MAGIC, KINDS),
            (err) => {
              throw err;
            },
          );
          expect(got?.header.x, `${output} ${slice}`).toBe('ñandú');
          expect(got?.header.n).toBe(3);
          expect([...(got?.arrays.a ?? [])]).toEqual([...a]);
          expect([...(got?.arrays.b ?? [])]).toEqual([...b]);
          expect([...(got?.arrays.c ?? [])]).toEqual([...c]);
          // one buffer of the arrays' bytes only: the header is not kept alive with them
          expect(got?.arrays.a.buffer).toBe(got?.arrays.c.buffer);
          expect(got?.arrays.a.buffer.byteLength).toBe(bytes.length - start);
        }
      }
      // another magic, or a value cut short: not this read model
      const read = (value: Buffer, magic = MAGIC) =>
        readSaved(
          client,
          { source: 'select $1::bytea as data', values: [value], slice: 5, magic },
          (d) => decodeSaved(d, magic, KINDS),
          (err) => {
            throw err;
          },
        );
      expect(await read(bytes, 'OTR1')).toBeNull();
      expect(await read(bytes.subarray(0, bytes.length - 8))).toBeNull();
      expect(await read(bytes.subarray(0, start - 3))).toBeNull();
      expect(await read(bytes.subarray(0, 6))).toBeNull();
      // the parameters become literals (COPY takes none): a string with quotes stays one string
      const tricky = "o'brien'); drop table users; --";
      const quoted = await readSaved(
        client,
        {
          source: 'select $1::bytea as data where $2::text = $3::text',
          values: [bytes, tricky, tricky],
          magic: MAGIC,
        },
        (d) => decodeSaved<{ x: string }, 'a' | 'b' | 'c'>(d, MAGIC, KINDS),
        (err) => {
          throw err;
        },
      );
      expect(quoted?.header.x).toBe('ñandú');
      expect(() => withLiterals(client, 'select $1', [{ a: 1 }])).toThrow('$1');
      expect(() => withLiterals(client, 'select $1', [Number.NaN])).toThrow('$1');
      // no row selected: null; a failing source: null and the error told
      const none = await readSaved(
        client,
        { source: 'select $1::bytea as data where false', values: [bytes], magic: MAGIC },
        (d) => d,
        (err) => {
          throw err;
        },
      );
      expect(none).toBeNull();
      const errors: unknown[] = [];
      expect(
        await readSaved(
          client,
          { source: 'select data from no_such_table', values: [], magic: MAGIC },
          (d) => d,
          (e) => errors.push(e),
        ),
      ).toBeNull();
      expect(String(errors[0])).toContain('no_such_table');
      // the connection is usable after the failed COPY
      expect((await client.query('select 1 as one')).rows[0].one).toBe(1);
      // a chunk the reader refuses fails the COPY, not the process, and the connection stays usable
      let chunks = 0;
      await expect(
        copyOut(client, 'copy (select generate_series(1, 3)) to stdout', () => {
          chunks++;
          throw new Error('porción rechazada');
        }),
      ).rejects.toThrow('porción rechazada');
      expect(chunks).toBe(1);
      expect((await client.query('select 2 as two')).rows[0].two).toBe(2);
    } finally {
      client.release();
      await pool.end();
    }
  });
});

describe('SavedSink (the binary COPY of a saved value, in chunks cut anywhere)', () => {
  const int = (v: number, bytes = 4) => {
    const b = Buffer.alloc(bytes);
    if (bytes === 2) b.writeInt16BE(v);
    else b.writeInt32BE(v);
    return b;
  };
  /** The COPY PostgreSQL sends for `value` in slices of `slice` bytes, the rows in `order` of k. */
  const copyOf = (value: Buffer, slice: number, order: 'asc' | 'desc') => {
    const ks = Array.from({ length: Math.max(1, Math.ceil(value.length / slice)) }, (_, k) => k);
    if (order === 'desc') ks.reverse();
    const rows = ks.map((k) => {
      const part = value.subarray(k * slice, (k + 1) * slice);
      return Buffer.concat([int(3, 2), int(4), int(k), int(4), int(value.length), int(part.length), part]);
    });
    return Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), int(0), int(0), ...rows, int(-1, 2)]);
  };
  const feed = (copy: Buffer, cut: number, slice: number) => {
    const sink = new SavedSink(slice, MAGIC);
    for (let at = 0; at < copy.length; at += cut) sink.write(Buffer.from(copy.subarray(at, at + cut)));
    return sink.end();
  };

  it('places every slice where it belongs, whatever the order of the rows and the cuts of the chunks', () => {
    for (const slice of [3, 7, start, 64, 1 << 20])
      for (const order of ['asc', 'desc'] as const)
        for (const cut of [1, 2, 5, 13, 1 << 20]) {
          const got = decodeSaved<{ x: string }, 'a' | 'b' | 'c'>(
            feed(copyOf(bytes, slice, order), cut, slice) as Buffer,
            MAGIC,
            KINDS,
          );
          expect(got?.header.x, `${slice} ${order} ${cut}`).toBe('ñandú');
          expect([...(got?.arrays.b ?? [])]).toEqual([...b]);
          expect([...(got?.arrays.c ?? [])]).toEqual([...c]);
          expect(got?.arrays.a.buffer.byteLength).toBe(bytes.length - start);
        }
  });

  it('refuses what is not a whole binary COPY of the value', () => {
    const whole = copyOf(bytes, 7, 'asc');
    expect(() => feed(Buffer.from('PGCOPY?'.padEnd(40, '?')), 5, 7)).toThrow('firma');
    expect(() => feed(whole.subarray(0, whole.length - 2), 5, 7)).toThrow('sin fin');
    expect(() => feed(whole.subarray(0, whole.length - 9), 5, 7)).toThrow('sin fin');
    // a slice missing (the trailer after the last but one row): bytes missing
    const rows = copyOf(bytes, 7, 'asc');
    const lastRow = 2 + 8 + 8 + 4 + ((bytes.length - 1) % 7) + 1;
    const cut = Buffer.concat([rows.subarray(0, rows.length - 2 - lastRow), int(-1, 2)]);
    expect(() => feed(cut, 5, 7)).toThrow('faltan');
    // no row: no value
    expect(
      feed(Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), int(0), int(0), int(-1, 2)]), 5, 7),
    ).toBeNull();
  });
});

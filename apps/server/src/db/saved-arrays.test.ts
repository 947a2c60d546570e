import { describe, expect, inject, it } from 'vitest';
import { createPool } from './database.js';
import { decodeSaved, encodeSaved, readSaved, type SavedKind } from './saved-arrays.js';

// A read model saved whole in one bytea value and read back in slices (pricing/snapshot.ts,
// dashboard/history-snapshot.ts): each slice's hex is written straight into the header's bytes or the
// arrays' (a slice may straddle them), in either output format of bytea, and the arrays are views of one
// buffer that holds only them.

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
    } finally {
      client.release();
      await pool.end();
    }
  });
});

import { afterAll, describe, expect, inject, it } from 'vitest';
import { exportPool } from '../platform/pool/index.js';
import { createPool } from './database.js';
import { startReadAhead } from './read-ahead.js';
import {
  type AheadValue,
  aheadHeld,
  decodeSaved,
  encodeSaved,
  readAhead,
  readSaved,
  type SavedBytes,
  type SavedKind,
  type SavedQuery,
} from './saved-arrays.js';

// Read ahead at start-up (issue 30, cold start): the saved values an API process loads first are read in
// a pool thread before the app's modules are compiled; a request takes such a value instead of reading
// it again while its row is the one read (the row's stamp), and reads it itself otherwise.

const MAGIC = 'TAH1';
const KINDS: Record<'a', SavedKind> = { a: 'Int32Array' };
const savedValue = (x: string, a: number[]) => encodeSaved(MAGIC, { x }, [['a', Int32Array.from(a)]]);
const decode = (d: SavedBytes) => {
  const got = decodeSaved<{ x: string }, 'a'>(d, MAGIC, KINDS);
  return got && { x: got.header.x, a: [...got.arrays.a] };
};
const fail = (err: unknown) => {
  throw err;
};

const pool = createPool(inject('pgAppUrl'), 3);
afterAll(async () => {
  await pool.end();
});

async function table(name: string) {
  await pool.query(`drop table if exists ${name}`);
  await pool.query(
    `create table ${name} (id int primary key, saved_at timestamptz not null default now(), data bytea not null)`,
  );
}
const query = (name: string, id: number): SavedQuery => ({
  source: `select s.data, s.saved_at::text as stamp from ${name} s where s.id = $1`,
  values: [id],
  magic: MAGIC,
});

describe('a value read ahead in a pool thread (startReadAhead)', () => {
  it('is taken by the first read while its row is unchanged, read again once the row was saved again', async () => {
    await table('ahead_test');
    await pool.query('insert into ahead_test (id, data) values (1, $1), (2, $2)', [
      savedValue('uno', [1, -1]),
      savedValue('dos', [2, 2_000_000_000]),
    ]);
    await startReadAhead(inject('pgAppUrl'), [query('ahead_test', 1), query('ahead_test', 2)]);
    expect(aheadHeld()).toBe(2);
    // the rows' bytes change without a new stamp (not how the features save: it shows which bytes a read
    // returns): row 1's read returns the bytes read ahead …
    await pool.query('update ahead_test set data = $1 where id = 1', [savedValue('uno nuevo', [9])]);
    expect(await readSaved(pool, query('ahead_test', 1), decode, fail)).toEqual({ x: 'uno', a: [1, -1] });
    // … once: the next read reads the row
    expect(await readSaved(pool, query('ahead_test', 1), decode, fail)).toEqual({ x: 'uno nuevo', a: [9] });
    // row 2 saved again (a new stamp) after its value was read ahead: that value is passed over
    await pool.query('update ahead_test set data = $1, saved_at = now() where id = 2', [
      savedValue('dos nuevo', [3]),
    ]);
    expect(await readSaved(pool, query('ahead_test', 2), decode, fail)).toEqual({ x: 'dos nuevo', a: [3] });
    expect(aheadHeld()).toBe(0);
    // a query that selects no row: nothing read ahead, the read says none
    await startReadAhead(inject('pgAppUrl'), [query('ahead_test', 3)]);
    expect(await readSaved(pool, query('ahead_test', 3), decode, fail)).toBeNull();
    await pool.query('drop table ahead_test');
  });

  it('a row gone since: the read finds none', async () => {
    await table('ahead_gone');
    await pool.query('insert into ahead_gone (id, data) values (1, $1)', [savedValue('uno', [1])]);
    await startReadAhead(inject('pgAppUrl'), [query('ahead_gone', 1)]);
    await pool.query('delete from ahead_gone');
    expect(await readSaved(pool, query('ahead_gone', 1), decode, fail)).toBeNull();
    await pool.query('drop table ahead_gone');
  });

  afterAll(async () => {
    await exportPool.close();
  });
});

describe('readAhead (the order and the hand-over)', () => {
  it('reads one value at a time in order; a value asked for before it began is read next, and the request waits for it', async () => {
    await table('ahead_order');
    await pool.query('insert into ahead_order (id, data) values (1, $1), (2, $2), (3, $3)', [
      savedValue('uno', [1]),
      savedValue('dos', [2]),
      savedValue('tres', [3]),
    ]);
    const begun: number[] = [];
    let release = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const stamps = async (id: number) =>
      (
        await pool.query<{ stamp: string }>('select saved_at::text as stamp from ahead_order where id = $1', [
          id,
        ])
      ).rows[0].stamp;
    const done = readAhead(
      [query('ahead_order', 1), query('ahead_order', 2), query('ahead_order', 3)],
      async (q): Promise<AheadValue | null> => {
        const id = q.values[0] as number;
        begun.push(id);
        if (id === 1) await gate;
        return { stamp: await stamps(id), value: savedValue(`ahead ${id}`, [id * 10]) };
      },
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(begun).toEqual([1]);
    // value 3 is asked for while value 1 is being read: it is read next, before value 2, and the request
    // takes it
    const third = readSaved(pool, query('ahead_order', 3), decode, fail);
    // value 1 is asked for while being read: the request waits for it and takes it
    const first = readSaved(pool, query('ahead_order', 1), decode, fail);
    await new Promise((r) => setTimeout(r, 50));
    expect(begun).toEqual([1]);
    release();
    expect(await first).toEqual({ x: 'ahead 1', a: [10] });
    expect(await third).toEqual({ x: 'ahead 3', a: [30] });
    await done;
    expect(begun).toEqual([1, 3, 2]);
    expect(await readSaved(pool, query('ahead_order', 2), decode, fail)).toEqual({ x: 'ahead 2', a: [20] });
    expect(aheadHeld()).toBe(0);
    await pool.query('drop table ahead_order');
  });

  it('drops a value nobody took after its time', async () => {
    await readAhead([query('ahead_never', 1)], async () => ({ stamp: 's', value: savedValue('x', [1]) }), 30);
    expect(aheadHeld()).toBe(1);
    await new Promise((r) => setTimeout(r, 80));
    expect(aheadHeld()).toBe(0);
  });
});

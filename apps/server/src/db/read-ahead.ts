import pg from 'pg';
import { exportPool, movedWith, task } from '../platform/pool/index.js';
import { DB_TIMEOUTS } from './database.js';
import { type AheadValue, copySaved, readAhead, type SavedQuery, splitSaved } from './saved-arrays.js';

// Read ahead at start-up (issue 30, cold start; saved-arrays.ts readAhead): the saved read models an API
// process will load first are read in a thread of the export pool while the main thread compiles the
// app's modules. On the large market, before: the process listened at ~1.4–1.9 s, and a first DPM answer
// then read the pivot's 45 MB saved model (0.6–1.0 s) on the main thread beside the dashboard's 87 MB.

/** `a` with an ArrayBuffer of its own (one that can be moved). */
const own = (a: Uint8Array): Uint8Array<ArrayBuffer> =>
  a.buffer instanceof ArrayBuffer && a.byteOffset === 0 && a.byteLength === a.buffer.byteLength
    ? (a as Uint8Array<ArrayBuffer>)
    : new Uint8Array(a);

/**
 * In a pool thread: the value `q` selects and its row's `stamp`, read in one transaction on a connection
 * of its own to `url`; null when it selects none. The bytes are moved to the main thread, not copied.
 */
export async function readSavedInThread(url: string, q: SavedQuery) {
  const client = new pg.Client({ connectionString: url, statement_timeout: DB_TIMEOUTS.statementMs });
  client.on('error', () => {});
  await client.connect();
  try {
    // the stamp and the bytes of the same row version
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ stamp: string }>(`select s.stamp from (${q.source}) s`, q.values);
    if (!rows.length) return null;
    const value = await copySaved(client, q);
    await client.query('commit');
    if (!value || Buffer.isBuffer(value) || !('body' in value)) return null;
    // each array in a buffer of its own (the copies' first touch of fresh memory paid here, not on the
    // main thread), so that a read model can keep the arrays it holds as they are (pricing/model.ts
    // savedToModel: the offers' columns) without keeping the others alive
    const parts = splitSaved(value, q.magic);
    if (!parts) return null;
    const head = own(parts.head);
    const split = parts.split.map(own);
    return movedWith({ stamp: rows[0].stamp, head, split }, [head.buffer, ...split.map((a) => a.buffer)]);
  } finally {
    await client.end().catch(() => {});
  }
}

const readTask = task(import.meta.url, 'readSavedInThread', readSavedInThread);

/** Reads `queries` ahead (in this order, one at a time) in the export pool on connections to `url`. */
export function startReadAhead(url: string, queries: SavedQuery[]) {
  return readAhead(queries, async (q): Promise<AheadValue | null> => {
    const got = (await exportPool.run(readTask, [url, q])) as {
      stamp: string;
      head: Uint8Array;
      split: Uint8Array[];
    } | null;
    if (!got) return null;
    const head = Buffer.from(got.head.buffer, got.head.byteOffset, got.head.byteLength);
    return { stamp: got.stamp, value: { head, split: got.split } };
  });
}

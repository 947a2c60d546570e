import type pg from 'pg';
import { queryOwnClient } from '../../db/database.js';
import {
  decodeSaved,
  encodeSaved,
  readSaved,
  type SavedBytes,
  type SavedKind,
  SLICE,
} from '../../db/saved-arrays.js';
import { readModelsOf } from '../../platform/read-model.js';
import type { IndexHistory } from './index-history.js';

// A pivot's index history saved whole in the database (dashboard_index_history_snapshots, migration 511),
// so that a process that starts — or a second API process — reads one value instead of every
// confirmed-matched listing's price intervals over the warm window (issue 30: on the large market that
// statement takes ~36 s a process, and the dashboard answers a new competitor selection from the slower
// per-request SQL meanwhile). Closed days never change, so the value saved for (pivot, zone, from, to) is
// that window's history; it is read only for exactly that window (the next day's window loads from the
// tables once, then saves over it).
//
// Layout of `data` (bytea, stored uncompressed; db/saved-arrays.ts): 'VIH1', a 4-byte length, a JSON header
// (pivot, zone, window, currencies, the arrays' places), then the history's typed arrays, each at an offset
// that is a multiple of 8, little-endian (the byte order of the machines the server runs on).

const MAGIC = 'VIH1';
/** The history's arrays, with the kind each must have (a value saved by another version is not read). */
const KIND = {
  groupStart: 'Int32Array',
  seller: 'Int32Array',
  cls: 'Int32Array',
  start: 'Int32Array',
  cur: 'Uint8Array',
  price: 'Float64Array',
  a: 'Int16Array',
  b: 'Int16Array',
} as const satisfies Record<string, SavedKind>;
type HistoryArray = keyof typeof KIND;
const ARRAYS = Object.keys(KIND) as HistoryArray[];

interface Header {
  pivot: number;
  zone: string;
  from: string;
  to: string;
  currencies: string[];
}

/** The history as saved bytes. */
export function encodeHistory(h: IndexHistory): Buffer {
  const header: Header = { pivot: h.pivot, zone: h.zone, from: h.from, to: h.to, currencies: h.currencies };
  return encodeSaved(
    MAGIC,
    header,
    ARRAYS.map((name) => [name, h[name]]),
  );
}

/**
 * Saved bytes → the history; null when they are not the history of (pivot, zone, from, to), are cut
 * short, or their arrays do not fit together.
 */
export function decodeHistory(
  buf: SavedBytes,
  q: { pivot: number; zone: string; from: string; to: string },
): IndexHistory | null {
  const saved = decodeSaved<Header, HistoryArray>(buf, MAGIC, KIND);
  if (!saved) return null;
  const { header: x, arrays } = saved;
  if (x.pivot !== q.pivot || x.zone !== q.zone || x.from !== q.from || x.to !== q.to) return null;
  if (!Array.isArray(x.currencies)) return null;
  const h = {
    ...(arrays as { [K in HistoryArray]: IndexHistory[K] }),
    pivot: q.pivot,
    zone: q.zone,
    from: q.from,
    to: q.to,
    currencies: x.currencies,
    bytes: ARRAYS.reduce((s, n) => s + arrays[n].byteLength, 0),
  };
  // the shape buildIndexHistory gives: groups cover the listings, listings cover the intervals
  const listings = h.seller.length;
  const intervals = h.price.length;
  if (
    h.groupStart.length < 1 ||
    h.groupStart[h.groupStart.length - 1] !== listings ||
    h.cls.length !== listings ||
    h.start.length !== listings + 1 ||
    h.start[listings] !== intervals ||
    h.cur.length !== intervals ||
    h.a.length !== intervals ||
    h.b.length !== intervals
  )
    return null;
  return h;
}

/** The history saved for exactly (pivot, zone, from, to); null when none or unreadable. */
export async function readSavedHistory(
  pool: pg.Pool,
  q: { pivot: number; zone: string; from: string; to: string },
  slice = SLICE,
): Promise<IndexHistory | null> {
  return readColumn(pool, 'data', q, q, slice);
}

/**
 * The last days of the window (pivot, zone, from, to) saved beside its history (`recent`, migration 541),
 * when they are those of `recentFrom` .. `to`; null when none or unreadable.
 */
export async function readSavedRecent(
  pool: pg.Pool,
  q: { pivot: number; zone: string; from: string; to: string },
  recentFrom: string,
  slice = SLICE,
): Promise<IndexHistory | null> {
  return readColumn(pool, 'recent', q, { ...q, from: recentFrom }, slice);
}

async function readColumn(
  pool: pg.Pool,
  column: 'data' | 'recent',
  row: { pivot: number; zone: string; from: string; to: string },
  value: { pivot: number; zone: string; from: string; to: string },
  slice: number,
): Promise<IndexHistory | null> {
  return readSaved(
    pool,
    {
      source: `select s.${column} as data from dashboard_index_history_snapshots s
                where s.pivot_id = $1 and s.zone = $2 and s.from_day = $3::date and s.to_day = $4::date
                  and s.${column} is not null`,
      values: [row.pivot, row.zone, row.from, row.to],
      slice,
      magic: MAGIC,
    },
    (data) => decodeHistory(data, value),
    (err) =>
      readModelsOf(pool).warn(
        { err, ...row, column },
        'dashboard: saved index history unreadable; loading from the tables',
      ),
  );
}

/**
 * Saves `h` as its pivot and zone's history, with `recent` (its last days: index-history.ts recentOf;
 * null when its window is too short to cut), over one of an earlier or the same window (the same: a saved
 * value found unreadable is written again); one statement, so processes saving at once each write a whole
 * value. Never throws.
 */
export async function saveHistory(
  pool: pg.Pool,
  h: IndexHistory,
  recent: IndexHistory | null,
): Promise<boolean> {
  return write(
    pool,
    h,
    `insert into dashboard_index_history_snapshots (pivot_id, zone, from_day, to_day, data, recent)
     values ($1, $2, $3::date, $4::date, $5, $6)
     on conflict (pivot_id, zone) do update
        set from_day = excluded.from_day, to_day = excluded.to_day, data = excluded.data,
            recent = excluded.recent, saved_at = now()
      where dashboard_index_history_snapshots.to_day <= excluded.to_day`,
    [encodeHistory(h), recent && encodeHistory(recent)],
    'dashboard: the index history could not be saved',
  );
}

/**
 * Saves `recent` beside the history of `h`'s window already saved without it (a row written before
 * migration 541, or whose recent value was unreadable). Never throws.
 */
export async function saveRecent(pool: pg.Pool, h: IndexHistory, recent: IndexHistory): Promise<boolean> {
  return write(
    pool,
    h,
    `update dashboard_index_history_snapshots set recent = $5
      where pivot_id = $1 and zone = $2 and from_day = $3::date and to_day = $4::date`,
    [encodeHistory(recent)],
    "dashboard: the index history's last days could not be saved",
  );
}

/**
 * One statement on `h`'s row ($1–$4: pivot, zone, window; `values` from $5); whether it wrote a row. A
 * failure is logged with `failed`, never thrown.
 */
async function write(
  pool: pg.Pool,
  h: IndexHistory,
  text: string,
  values: unknown[],
  failed: string,
): Promise<boolean> {
  try {
    const { rowCount } = await queryOwnClient(pool, {
      text,
      values: [h.pivot, h.zone, h.from, h.to, ...values],
    });
    return (rowCount ?? 0) > 0;
  } catch (err) {
    readModelsOf(pool).warn({ err, pivot: h.pivot, zone: h.zone }, failed);
    return false;
  }
}

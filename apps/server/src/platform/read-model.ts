import { LRUCache } from 'lru-cache';
import pg from 'pg';
import {
  ANSWER_SCOPES,
  CHANGE_CHANNEL,
  type Change,
  parseChange,
  selectMarketVersion,
} from './change-signal.js';
import { codeStamp } from './code-stamp.js';

// The read-model holder (docs/architecture.md "Change signal and read models"): one per database pool,
// so one per API process. What the features keep in memory between requests lives here and follows
// the change signal (change-signal.ts):
//   - answer memos (`memo().answer`): whole answers keyed by what they depend on and the market's data
//     version, read once per answer; an answer whose making straddled a change is made again, so one
//     answer never mixes data from before and after a change; bounded LRU caches (lru-cache, whose
//     fetch joins concurrent misses of one key);
//   - in-memory memos keyed by a model's own version (`memo().remember`: synchronous, O(1));
//   - column stores (`state`): per key, a value loaded and refreshed by its feature's loader
//     (lib/versioned-slot.ts freshValue), refreshed in the background when the signal names a change;
//   - warm-ups: loads run in the background once the app is ready, one after another, each giving way to
//     the requests (`pause`): between its steps it lets the event loop turn, waits while a request's own
//     load is in flight (`forRequest`: a pivot asked for before its warm-up reached it) and, for at most
//     PAUSE_MAX_MS, while requests are being answered — so a login or a screen whose data is in the
//     database never waits for a warm-up's next step.
// One LISTEN connection per holder receives the notifications of every process's commits; changes are
// handed to the subscribers in batches (a burst of ingest runs refreshes each store once).

/** Whatever logs (Fastify's logger, pino). */
export interface HolderLog {
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
  debug?(obj: unknown, msg?: string): void;
}

/** A batch of changes, or 'all' after the listening connection was (re)opened: anything may have changed. */
export type ChangeBatch = Change[] | 'all';

/** Times an answer is made again when the data changed while it was being made. */
const ANSWER_ATTEMPTS = 4;
/** Changes arriving within this delay are handed to the subscribers together. */
const BATCH_MS = 50;
/** Wait before opening the listening connection again after it failed. */
const RECONNECT_MS = 1_000;
/**
 * The longest a warm-up step waits for the requests in flight to be answered (then it runs beside them:
 * under a steady load the warm-ups still progress, one step per PAUSE_MAX_MS at least).
 */
export const PAUSE_MAX_MS = 250;
/**
 * The warm-ups start once no request has arrived or been answered for START_QUIET_MS (so the first requests after a start
 * — a sign-in, the first screens and the pivots they load — go alone), START_MAX_MS after the app is
 * ready at the latest. 15 s (2 s until 2026-11-30): on the large market a cold start's first screens
 * take several seconds, and a warm-up step started 2 s after ready (the next pivot's model: ~1 s of the
 * main thread at once) ran in the middle of the first DPM answer (CPU profile); the first DPM KPIs
 * 5.1 s → 4.5 s mean of four starts each, alternated (docs/benchmarks.md, tenth session).
 */
export const START_QUIET_MS = 200;
/** Answers saved per memo kept across restarts (keptAcrossRestarts), and the longest the save may take. */
const KEPT_ANSWERS = 64;
const SAVE_MAX_MS = 3_000;
export const START_MAX_MS = 15_000;

/**
 * A memo's room in bytes besides its count of entries (issue 30, memory of an API process): `bytes`
 * estimates what an entry holds (its typed arrays); the least recently used entries leave while the
 * kept ones add up to more than `maxBytes`. An entry larger than that is used but not kept.
 */
export interface MemoBudget<V> {
  maxBytes: number;
  bytes: (v: V) => number;
}

/** The bytes of the typed arrays (and number arrays, 8 bytes an element) among `v`'s own fields. */
export function ownArrayBytes(v: object): number {
  let n = 0;
  for (const x of Object.values(v)) {
    if (ArrayBuffer.isView(x)) n += x.byteLength;
    else if (Array.isArray(x) && typeof x[0] === 'number') n += 8 * x.length;
  }
  return n;
}

export class Memo<V extends NonNullable<unknown>> {
  private readonly cache: LRUCache<string, V, () => Promise<V>>;
  /**
   * The read of the answers an earlier process saved (ReadModels.keptAcrossRestarts), awaited before the
   * first lookup; null once done (or for a memo not kept across restarts).
   */
  restoring: Promise<void> | null = null;

  constructor(
    private readonly holder: ReadModels,
    max: number,
    budget?: MemoBudget<V>,
  ) {
    this.cache = new LRUCache<string, V, () => Promise<V>>({
      max,
      ...(budget
        ? {
            maxSize: budget.maxBytes,
            sizeCalculation: (v: V) => Math.max(1, Math.ceil(budget.bytes(v))),
          }
        : {}),
      fetchMethod: (_key, _stale, { context }) => context(),
      // dropping an older version's answer being made must not fail the requests waiting for it
      ignoreFetchAbort: true,
    });
  }

  /**
   * The answer for `key` at the market's data version, read once: kept answers are returned at once;
   * concurrent requests for a missing one wait for one making. When the version moved while it was made
   * (a commit happened in between, so its reads may mix both sides), it is dropped and made again at
   * the new version (at most ANSWER_ATTEMPTS times; the last making is then returned, not kept).
   */
  async answer(key: unknown[], make: () => Promise<V>): Promise<V> {
    if (this.restoring) await this.restoring;
    let version = await this.holder.version();
    for (let attempt = 1; ; attempt++) {
      const k = JSON.stringify([key, version]);
      const hit = this.cache.get(k);
      if (hit !== undefined) return hit;
      const value = (await this.cache.fetch(k, { context: make })) as V;
      const after = await this.holder.version(performance.now());
      if (after === version) return value;
      this.cache.delete(k);
      this.holder.stats.remade++;
      if (attempt >= ANSWER_ATTEMPTS) return value;
      version = after;
    }
  }

  /** A synchronous memo (keys carry the model version they depend on): the kept value or `make()`'s. */
  remember(key: string, make: () => V, valid: (v: V) => boolean = () => true): V {
    const hit = this.cache.get(key);
    if (hit !== undefined && valid(hit)) return hit;
    const v = make();
    this.cache.set(key, v);
    return v;
  }

  /** A kept value (most recently used from now on). */
  get(key: string): V | undefined {
    return this.cache.get(key);
  }

  set(key: string, value: V): void {
    this.cache.set(key, value);
  }

  delete(key: string): void {
    this.cache.delete(key);
  }

  /** Drops the answers kept at another version than `version` (made by `answer`). */
  dropOlder(version: number): void {
    const current = `,${version}]`;
    for (const k of [...this.cache.keys()]) if (!k.endsWith(current)) this.cache.delete(k);
  }

  get size(): number {
    return this.cache.size;
  }

  /** The kept entries, most recently used first (answers being made are not among them). */
  entries(): [string, V][] {
    const out: [string, V][] = [];
    for (const [k, v] of this.cache.entries()) if (!(v instanceof Promise)) out.push([k, v]);
    return out;
  }
}

interface Subscriber {
  fn: (changes: ChangeBatch) => Promise<void>;
}

interface WarmUp {
  fn: () => Promise<void>;
  stop?: () => Promise<void>;
  inTests: boolean;
}

export class ReadModels {
  private readonly memos = new Map<string, { memo: Memo<NonNullable<unknown>>; answers: boolean }>();
  private readonly states = new Map<string, unknown>();
  private readonly subscribers = new Map<string, Subscriber>();
  private readonly warmUps = new Map<string, WarmUp>();
  private listener: pg.Client | null = null;
  private users = 0;
  private opened = 0;
  private closing = false;
  private log: HolderLog | null = null;
  private pending: Change[] = [];
  private pendingAll = false;
  private batchTimer: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private delivering: Promise<void> = Promise.resolve();
  private warming: Promise<void> = Promise.resolve();
  /** requests being answered (app.ts counts them) and requests' own loads in flight (`forRequest`) */
  private requests = 0;
  private requestLoads = 0;
  /** warm-up steps waiting in `pause`, woken when the count they wait on falls to 0 */
  private paused: (() => void)[] = [];
  /** when the last request arrived (ms) */
  private lastRequest = 0;
  private quietReached = () => {};
  /**
   * Resolves when the warm-ups begin (the first requests after the start answered: `quiet`); never when
   * the holder closed before.
   */
  readonly warmUpsBegin = new Promise<void>((r) => {
    this.quietReached = r;
  });
  private warmUpsEnded = () => {};
  /**
   * Resolves when every warm-up has run (each loaded its models, or failed and said so); never when the
   * holder closed before. Start-up work that is not a read model waits for it (detail/routes.ts: the
   * export threads' compiling of ExcelJS), so that a cold start's first answers and model loads have the
   * cores.
   */
  readonly warmUpsDone = new Promise<void>((r) => {
    this.warmUpsEnded = r;
  });
  /** Counters (tests, diagnostics). */
  readonly stats = { notified: 0, batches: 0, remade: 0, listening: false, restored: 0, saved: 0 };
  /**
   * Whether the memos named with keptAcrossRestarts save their answers when the holder closes and read
   * those an earlier process saved before their first answer. Off under the tests but where a test turns
   * it on: test databases are made again from the same seeds, so a market version can come back with
   * other data (in a deployment the saved answers are in the same database as the data they were made
   * from: restored with it from a backup, dropped with it).
   */
  keepAnswers = !process.env.VITEST;
  private readonly kept = new Set<string>();

  constructor(readonly pool: pg.Pool) {}

  /** The version read in flight, and when it was sent. */
  private versionRead: { sent: number; value: Promise<number> } | null = null;

  /**
   * The market's data version (one query: change-signal.ts selectMarketVersion), read by a query sent at
   * or after `sentAfter` (a performance.now() time; by default any read in flight). Concurrent callers
   * share a read in flight: an answer's version read before it is made may be older than the data the
   * making reads (the after read then differs and the answer is made again), but the read after it must
   * have been sent once the making ended — it names a read sent later or its own (issue 30: a dashboard
   * request asks ~15 per-seller answers, each read the version twice, one pool query each).
   */
  version(sentAfter = Number.NEGATIVE_INFINITY): Promise<number> {
    const read = this.versionRead;
    if (read && read.sent >= sentAfter) return read.value;
    const sent = performance.now();
    const value = selectMarketVersion(this.pool);
    const mine = { sent, value };
    this.versionRead = mine;
    const done = () => {
      if (this.versionRead === mine) this.versionRead = null;
    };
    value.then(done, done);
    return value;
  }

  /**
   * The memo named `name` (created with room for `max` entries on first use). `answers`: its entries
   * are answers keyed by the market version (`answer`), those of older versions dropped at every change
   * of ANSWER_SCOPES; otherwise its keys
   * carry their own versions and entries leave only by age. `budget`: room in bytes too (MemoBudget).
   */
  memo<V extends NonNullable<unknown>>(
    name: string,
    max: number,
    answers = true,
    budget?: MemoBudget<V>,
  ): Memo<V> {
    let m = this.memos.get(name);
    if (!m) {
      m = {
        memo: new Memo<NonNullable<unknown>>(
          this,
          max,
          budget as MemoBudget<NonNullable<unknown>> | undefined,
        ),
        answers,
      };
      this.memos.set(name, m);
    }
    return m.memo as unknown as Memo<V>;
  }

  /**
   * An answer memo (as `memo`) whose answers at the market's current data version are saved when the
   * holder closes (the KEPT_ANSWERS most recently used) and read by the next process's holder before
   * its first answer (answer_memos_saved, migration 540; only those made by the same code:
   * code-stamp.ts). Issue 30, cold start: a restarted API process answers the screens asked just before
   * from what it reads at once, while its models load behind. A key must name everything the answer
   * depends on besides the market's data (the market version is added by `answer`).
   */
  keptAcrossRestarts<V extends NonNullable<unknown>>(name: string, max: number): Memo<V> {
    const m = this.memo<V>(name, max);
    if (this.keepAnswers && !this.kept.has(name)) {
      this.kept.add(name);
      const read = this.restoreAnswers(name, m as unknown as Memo<NonNullable<unknown>>);
      m.restoring = read;
      void read.then(() => {
        if (m.restoring === read) m.restoring = null;
      });
    }
    return m;
  }

  /** Reads the answers saved for memo `name` by the same code into it (a failure only warns). */
  private async restoreAnswers(name: string, m: Memo<NonNullable<unknown>>): Promise<void> {
    try {
      const code = await codeStamp();
      const { rows } = await this.pool.query<{ key: string; value: NonNullable<unknown> }>(
        `select key, value from answer_memos_saved where memo = $1 and code = $2
          order by saved_at, rank desc`,
        [name, code],
      );
      // oldest first, so that the last saved are the most recently used
      for (const r of rows) if (r.value !== null && m.get(r.key) === undefined) m.set(r.key, r.value);
      this.stats.restored += rows.length;
    } catch (err) {
      this.warn({ err, memo: name }, 'read models: saved answers not read');
    }
  }

  /** Saves the kept-across-restarts memos' answers at the current market version (a failure only warns). */
  private async saveKeptAnswers(): Promise<void> {
    if (!this.kept.size) return;
    try {
      const code = await codeStamp();
      const current = `,${await this.version()}]`;
      for (const name of this.kept) {
        const m = this.memos.get(name)?.memo;
        if (!m) continue;
        const entries = m
          .entries()
          .filter(([k]) => k.endsWith(current))
          .slice(0, KEPT_ANSWERS);
        if (!entries.length) continue;
        await this.pool.query(
          `insert into answer_memos_saved as s (memo, key, code, rank, value)
           select $1, t.k, $2, t.r, t.v::json
             from unnest($3::text[], $4::text[]) with ordinality as t(k, v, r)
           on conflict (memo, key) do update
              set code = excluded.code, rank = excluded.rank, value = excluded.value, saved_at = now()`,
          [name, code, entries.map((e) => e[0]), entries.map((e) => JSON.stringify(e[1]))],
        );
        // the memo's newest KEPT_ANSWERS only (several processes save into the same rows)
        await this.pool.query(
          `delete from answer_memos_saved
            where memo = $1
              and key not in (select key from answer_memos_saved where memo = $1
                               order by saved_at desc, rank limit $2)`,
          [name, KEPT_ANSWERS],
        );
        this.stats.saved += entries.length;
      }
    } catch (err) {
      this.warn({ err }, 'read models: answers not saved');
    }
  }

  /**
   * The store named `name` (made by `init` on first use): a column store's slots (lib/versioned-slot.ts),
   * loaded and refreshed by its feature's loader, kept as long as the pool.
   */
  state<T>(name: string, init: () => T): T {
    if (!this.states.has(name)) this.states.set(name, init());
    return this.states.get(name) as T;
  }

  /** Calls `fn` with every batch of changes (after the older answers were dropped). Replaces one of the same name. */
  subscribe(name: string, fn: (changes: ChangeBatch) => Promise<void>): void {
    this.subscribers.set(name, { fn });
  }

  unsubscribe(name: string): void {
    this.subscribers.delete(name);
  }

  /**
   * A load run in the background once the app is ready (after the listening connection is open, so no
   * change committed meanwhile is missed); `stop` is called at close before waiting for it. Under the
   * tests only when `inTests`.
   */
  warmUp(
    name: string,
    fn: () => Promise<void>,
    opts: { stop?: () => Promise<void>; inTests?: boolean } = {},
  ) {
    this.warmUps.set(name, { fn, stop: opts.stop, inTests: opts.inTests ?? false });
  }

  /** A request is being answered (app.ts: from onRequest to its answer sent or aborted). */
  requestStarted(): void {
    this.requests++;
    this.lastRequest = Date.now();
  }

  requestEnded(): void {
    this.requests = Math.max(0, this.requests - 1);
    // quiet counts from the last request's answer too: a sign-in answered 440 ms after it arrived had
    // already "no request for 200 ms", and the warm-ups began making another pivot in the 7 ms before
    // the first screens' requests (issue 30, eleventh session: traced in a cold start)
    this.lastRequest = Date.now();
    if (this.requests === 0) this.wake();
  }

  /**
   * Runs a load a request waits for (its pivot's model not loaded yet): the warm-ups pause at their next
   * step until it is done, so that it has the process (and the database) to itself as far as they go.
   */
  async forRequest<T>(load: () => Promise<T>): Promise<T> {
    this.requestLoads++;
    try {
      return await load();
    } finally {
      this.requestLoads--;
      if (this.requestLoads === 0) this.wake();
    }
  }

  /**
   * Where a warm-up gives way (between its steps: a pivot, a seller, a batch): after one turn of the
   * event loop (the I/O and the requests that arrived meanwhile go first), it waits while a request's own
   * load is in flight, and at most PAUSE_MAX_MS while requests are being answered. Resolves at once when
   * the holder is closing (the warm-up then sees it is stopped).
   */
  async pause(): Promise<void> {
    await new Promise((r) => setImmediate(r));
    const deadline = Date.now() + PAUSE_MAX_MS;
    for (;;) {
      if (this.closing) return;
      if (this.requestLoads > 0) await this.change();
      else if (this.requests > 0 && Date.now() < deadline) await this.change(deadline - Date.now());
      else return;
    }
  }

  /**
   * Before the first warm-up: waits until no request has arrived for START_QUIET_MS and none is being
   * answered (START_MAX_MS at most), and then while a request's own load is in flight (`pause`).
   */
  private async quiet(): Promise<void> {
    const latest = Date.now() + START_MAX_MS;
    this.lastRequest = Math.max(this.lastRequest, Date.now());
    for (;;) {
      if (this.closing) return;
      const now = Date.now();
      const wait = this.requests > 0 ? PAUSE_MAX_MS : this.lastRequest + START_QUIET_MS - now;
      if (wait <= 0 || now >= latest) break;
      await this.change(Math.min(wait, latest - now));
    }
    await this.pause();
  }

  /**
   * Where a warm-up's long synchronous work gives way between its parts (pricing/model.ts: a pivot's
   * rows made from its saved model, ~1 s of the main thread on the large market): one turn of the event
   * loop, then while a request's own load is in flight — not while requests are answered (a request
   * may be waiting for this very load).
   */
  async giveWay(): Promise<void> {
    await new Promise((r) => setImmediate(r));
    while (this.requestLoads > 0 && !this.closing) await this.change();
  }

  /** Milliseconds since the last request arrived or was answered; 0 while one is being answered. */
  quietFor(): number {
    return this.requests > 0 ? 0 : Date.now() - this.lastRequest;
  }

  /** Whether the warm-ups would pause now (tests, diagnostics). */
  get yielding(): boolean {
    return this.requestLoads > 0 || this.requests > 0;
  }

  /** Resolves at the next wake (a count fell to 0, or closing), or after `ms` when given. */
  private change(ms?: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const woken = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer =
        ms === undefined
          ? undefined
          : setTimeout(() => {
              this.paused = this.paused.filter((w) => w !== woken);
              resolve();
            }, ms);
      this.paused.push(woken);
    });
  }

  private wake() {
    const waiting = this.paused;
    this.paused = [];
    for (const r of waiting) r();
  }

  /** Logs a warning with the server's logger (none before start: tests' holders stay silent). */
  warn(obj: unknown, msg: string): void {
    this.log?.warn(obj, msg);
  }

  /** Logs at debug level (LOG_LEVEL=debug), as warn. */
  debug(obj: unknown, msg: string): void {
    this.log?.debug?.(obj, msg);
  }

  /** Opens the listening connection and starts the warm-ups (once per holder, however many apps share it). */

  async start(log: HolderLog): Promise<void> {
    this.users++;
    if (this.users > 1) return;
    this.closing = false;
    this.log = log;
    await this.listen().catch((err) => {
      log.warn({ err }, 'read models: change signal not received yet, retrying');
      this.scheduleReconnect();
    });
    const tests = !!process.env.VITEST;
    this.warming = (async () => {
      await this.quiet();
      if (this.closing) return;
      this.quietReached();
      for (const [name, w] of this.warmUps) {
        if (tests && !w.inTests) continue;
        // between warm-ups: the requests first
        await this.pause();
        if (this.closing) return;
        await w.fn().catch((err) => log.warn({ err, name }, 'read models: warm-up failed'));
      }
      if (!this.closing) this.warmUpsEnded();
    })();
  }

  /** Stops listening, stops the warm-ups and waits for them and for the changes being handed out. */
  async close(): Promise<void> {
    this.users = Math.max(0, this.users - 1);
    if (this.users > 0) return;
    // before anything stops (the pool is still open); bounded, so that a lost database does not hold
    // the shutdown
    await Promise.race([this.saveKeptAnswers(), new Promise((r) => setTimeout(r, SAVE_MAX_MS).unref())]);
    this.closing = true;
    clearTimeout(this.batchTimer);
    clearTimeout(this.reconnectTimer);
    const l = this.listener;
    this.listener = null;
    this.stats.listening = false;
    this.wake();
    if (l) await l.end().catch(() => {});
    for (const w of this.warmUps.values()) await w.stop?.().catch(() => {});
    await this.warming;
    await this.delivering;
  }

  /** Resolves once the changes received so far were handed to every subscriber (tests). */
  async settled(): Promise<void> {
    while (this.batchTimer || this.pending.length || this.pendingAll) {
      await new Promise((r) => setTimeout(r, BATCH_MS));
    }
    await this.delivering;
  }

  private async listen(): Promise<void> {
    const client = new pg.Client(this.pool.options);
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (msg) => {
      if (msg.channel !== CHANGE_CHANNEL) return;
      const change = parseChange(msg.payload);
      if (!change) return;
      this.stats.notified++;
      this.pending.push(change);
      this.schedule();
    });
    await client.connect();
    await client.query(`listen ${CHANGE_CHANNEL}`);
    if (this.closing) {
      await client.end().catch(() => {});
      return;
    }
    const again = this.opened++ > 0;
    this.listener = client;
    this.stats.listening = true;
    // After a lost connection, changes may have been missed: every store checks its versions again.
    if (again) {
      this.pendingAll = true;
      this.schedule();
    }
  }

  private lost(client: pg.Client) {
    if (this.listener !== client || this.closing) return;
    this.listener = null;
    this.stats.listening = false;
    this.log?.warn({}, 'read models: change signal connection lost, reconnecting');
    this.scheduleReconnect();
  }

  private scheduleReconnect() {
    if (this.closing || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.listen().catch(() => this.scheduleReconnect());
    }, RECONNECT_MS);
    this.reconnectTimer.unref();
  }

  private schedule() {
    if (this.batchTimer || this.closing) return;
    this.batchTimer = setTimeout(() => {
      this.batchTimer = undefined;
      const batch: ChangeBatch = this.pendingAll ? 'all' : this.pending;
      this.pending = [];
      this.pendingAll = false;
      this.delivering = this.delivering.then(() => this.deliver(batch));
    }, BATCH_MS);
  }

  private async deliver(batch: ChangeBatch): Promise<void> {
    if (this.closing) return;
    this.stats.batches++;
    // the answers kept of an older version: no request will ask for them again
    if (touches(batch, ANSWER_SCOPES)) {
      const version = await this.version().catch(() => null);
      if (version !== null) for (const m of this.memos.values()) if (m.answers) m.memo.dropOlder(version);
    }
    for (const [name, s] of this.subscribers) {
      if (this.closing) return;
      await s
        .fn(batch)
        .catch((err) => this.log?.warn({ err, name }, 'read models: refresh after a change failed'));
    }
  }
}

const holders = new WeakMap<pg.Pool, ReadModels>();

/** The read-model holder of a database pool (one per process in production). */
export function readModelsOf(pool: pg.Pool): ReadModels {
  let h = holders.get(pool);
  if (!h) {
    h = new ReadModels(pool);
    holders.set(pool, h);
  }
  return h;
}

/** Whether a batch names a change of one of `scopes` (of any seller, or of `sellers` when given). */
export function touches(
  batch: ChangeBatch,
  scopes: readonly Change['scope'][],
  sellers?: Set<number>,
): boolean {
  if (batch === 'all') return true;
  return batch.some((c) => scopes.includes(c.scope) && (!sellers || sellers.has(c.sellerId)));
}

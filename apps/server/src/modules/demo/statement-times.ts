import type pg from 'pg';

// Per-statement totals of the demo seed (issue 30 part 3: which statements of seedDemoMarket take the
// time). While a recorder is on, every query of the pool — pool.query and the clients pool.connect hands
// out, so the ingest transactions too — adds its wall time to its statement's entry (the SQL text with
// whitespace collapsed, cut to 120 characters: the same statement with other values is one entry). The
// seed logs the top entries after each phase. Wall time, not CPU: statements of concurrent lanes overlap.

export interface StatementTotal {
  statement: string;
  calls: number;
  ms: number;
}

type QueryFn = (...args: unknown[]) => unknown;

const KEY_LENGTH = 120;
const TIMED = Symbol('statement-times');

function keyOf(arg: unknown): string {
  const text = typeof arg === 'string' ? arg : ((arg as { text?: string } | null)?.text ?? '?');
  return text.replace(/\s+/g, ' ').trim().slice(0, KEY_LENGTH);
}

/**
 * Starts recording the pool's statements; `take()` returns the totals since the last take, largest first.
 * Every client the pool hands out (pool.query takes one too) times its queries while recording is on.
 */
export function recordStatementTimes(pool: pg.Pool): { take(): StatementTotal[]; stop(): void } {
  let totals = new Map<string, StatementTotal>();
  let on = true;
  const add = (arg: unknown, t: number) => {
    if (!on) return;
    const key = keyOf(arg);
    const e = totals.get(key) ?? { statement: key, calls: 0, ms: 0 };
    e.calls++;
    e.ms += performance.now() - t;
    totals.set(key, e);
  };
  const wrap = (client: unknown) => {
    const c = client as { query: QueryFn; [TIMED]?: boolean };
    if (!c || c[TIMED]) return;
    c[TIMED] = true;
    const original = c.query;
    c.query = function (this: unknown, ...args: unknown[]) {
      const t = performance.now();
      const r = original.apply(this, args);
      if (r && typeof (r as Promise<unknown>).then === 'function')
        (r as Promise<unknown>).then(
          () => add(args[0], t),
          () => add(args[0], t),
        );
      return r;
    };
  };
  const connect = pool.connect;
  // both forms: a promise (withTransaction) and a callback (pool.query's own)
  pool.connect = function (this: pg.Pool, ...args: unknown[]) {
    const cb = args[0];
    if (typeof cb === 'function')
      return (connect as QueryFn).call(this, (err: unknown, client: unknown, done: unknown) => {
        if (!err) wrap(client);
        cb(err, client, done);
      });
    return (connect as () => Promise<pg.PoolClient>).call(this).then((client) => {
      wrap(client);
      return client;
    });
  } as typeof pool.connect;
  return {
    take() {
      const out = [...totals.values()].sort((a, b) => b.ms - a.ms);
      totals = new Map();
      return out;
    },
    stop() {
      on = false;
      pool.connect = connect;
    },
  };
}

/** The top `n` totals as log lines: "  1234.5 s   3,600 × 342.9 ms  insert into …". */
export function statementLines(totals: StatementTotal[], n = 12): string[] {
  return totals
    .slice(0, n)
    .map(
      (e) =>
        `  ${(e.ms / 1000).toFixed(1).padStart(7)} s ${e.calls.toLocaleString('en-US').padStart(9)} × ${(e.ms / e.calls).toFixed(1).padStart(7)} ms  ${e.statement}`,
    );
}

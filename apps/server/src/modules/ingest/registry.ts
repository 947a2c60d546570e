import type pg from 'pg';

/** What a roll-up learns about an ingest run. */
export interface RollupContext {
  sellerId: number;
  observedAt: Date;
  /** The seller's previous succeeded run (null: this is its first). */
  previousAt: Date | null;
  /**
   * The seller's listings (products.id) whose stored state the run may change: the observations that
   * differ from what was stored (new, changed, re-described or re-published listings) and, in a full
   * run, the listings it unpublishes. Every other listing of the seller is left as it was. Before the
   * changes: those of them that already existed; after: all of them.
   */
  touched: number[];
  /**
   * The zones day-keyed roll-ups are kept in for this run (rollup_zones, migration 431), read once per run
   * after the seller's row lock — a zone's rebuild takes that lock too, so a run either sees the zone or is
   * in the history the rebuild reads.
   */
  zones: string[];
}

/**
 * A roll-up kept up to date at ingest time, inside the ingest transaction: `fn` runs after the run's
 * changes; `before`, when given, runs before them (nothing of the run written yet) — e.g. to take the
 * touched listings' present contribution out of an aggregate that `fn` adds back.
 */
export type RollupUpdater = (client: pg.PoolClient, ctx: RollupContext & { runId: number }) => Promise<void>;
export type RollupBefore = (client: pg.PoolClient, ctx: RollupContext) => Promise<void>;
/**
 * Runs on a connection before the run's transaction begins (e.g. to create a temporary table the
 * roll-up keeps per connection: created inside a run that fails, it would go with the rollback).
 */
export type RollupPrepare = (client: pg.PoolClient) => Promise<void>;

/**
 * Registered roll-ups in the order they run (rollup-steps.ts): ingest's own first (rollups.ts), then the
 * features' in registration order (modules/rollups.ts lists them), whatever order the modules are loaded
 * in — so a feature's roll-up may read what ingest's own keep (e.g. rollup_daily_brand).
 */
export const rollupUpdaters: {
  name: string;
  fn: RollupUpdater;
  before?: RollupBefore;
  prepare?: RollupPrepare;
  own?: boolean;
}[] = [];

/** Registers a roll-up (e.g. daily promotion counts); runs on every ingest batch, in its transaction. */
export function registerRollup(
  name: string,
  fn: RollupUpdater,
  before?: RollupBefore,
  prepare?: RollupPrepare,
): void {
  if (!rollupUpdaters.some((r) => r.name === name)) rollupUpdaters.push({ name, fn, before, prepare });
}

/** Registers one of ingest's own roll-ups (rollups.ts): it runs before every feature's. */
export function registerOwnRollup(
  name: string,
  fn: RollupUpdater,
  before?: RollupBefore,
  prepare?: RollupPrepare,
): void {
  if (rollupUpdaters.some((r) => r.name === name)) return;
  const at = rollupUpdaters.findIndex((r) => !r.own);
  rollupUpdaters.splice(at < 0 ? rollupUpdaters.length : at, 0, { name, fn, before, prepare, own: true });
}

/**
 * Runs, in the transaction that changed them, after a person confirmed or rejected a match
 * (matching.ts): `productIds` are the listings whose live match membership changed. A feature that keeps
 * something derived from match groups (the pricing read model) subscribes here, so that the data path
 * calls no feature.
 */
export type MatchChangeHook = (client: pg.PoolClient, productIds: number[]) => Promise<unknown>;

/**
 * Rebuilds what a feature keeps per market zone (e.g. the promotions' listing-days) for one seller, after
 * the daily roll-up's rows of that zone were rebuilt from the history (zones.ts), in the same transaction
 * under the seller's row lock.
 */
export type ZoneRebuild = (client: pg.PoolClient, sellerId: number, zone: string) => Promise<void>;
/** Deletes what a feature keeps for a zone no organisation uses any more (same transaction as the zone's). */
export type ZoneDrop = (client: pg.PoolClient, zone: string) => Promise<void>;

/** Registered zone rebuilds and drops, in registration order. */
export const zoneRebuilds: { name: string; fn: ZoneRebuild; drop: ZoneDrop }[] = [];

/** Subscribes to a zone's rebuild and drop (see ZoneRebuild, ZoneDrop); a name registers once. */
export function registerZoneRebuild(name: string, fn: ZoneRebuild, drop: ZoneDrop): void {
  if (!zoneRebuilds.some((h) => h.name === name)) zoneRebuilds.push({ name, fn, drop });
}

/** Registered match-change hooks, in registration order. */
export const matchChangeHooks: { name: string; fn: MatchChangeHook }[] = [];

/** Subscribes to decided matches (see MatchChangeHook); a name registers once. */
export function registerMatchChangeHook(name: string, fn: MatchChangeHook): void {
  if (!matchChangeHooks.some((h) => h.name === name)) matchChangeHooks.push({ name, fn });
}

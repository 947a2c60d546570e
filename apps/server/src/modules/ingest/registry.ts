import type pg from 'pg';

/** A roll-up kept up to date at ingest time, inside the ingest transaction. */
export type RollupUpdater = (
  client: pg.PoolClient,
  ctx: { sellerId: number; observedAt: Date; runId: number },
) => Promise<void>;

/** Registered roll-ups, in registration order (ingest.ts runs them after every batch). */
export const rollupUpdaters: { name: string; fn: RollupUpdater }[] = [];

/** Registers a roll-up (e.g. daily promotion counts); runs after every ingest batch, in its transaction. */
export function registerRollup(name: string, fn: RollupUpdater): void {
  if (!rollupUpdaters.some((r) => r.name === name)) rollupUpdaters.push({ name, fn });
}

import type pg from 'pg';
import type { Candidate } from './diff.js';
import type { IngestRun } from './observation.js';
import { rollupUpdaters } from './registry.js';
import { rollupZones } from './rollups.js';

// Step "roll-ups": every registered roll-up (registry.ts), in the run's transaction — `before` each
// one before anything of the run is written, `fn` after the run's record — but those the caller defers
// (IngestOptions.deferRollups: it rebuilds their rows from the history afterwards).

/**
 * Roll-ups that maintain aggregates by difference see the touched listings before anything is written.
 * Returns the run's zones (RollupContext.zones), read here once for both phases.
 */
export async function rollupsBefore(
  client: pg.PoolClient,
  run: IngestRun,
  lastT: Date | null,
  cand: Candidate[],
  missing: number[],
  deferred: readonly string[] = [],
): Promise<string[]> {
  const t = run.observedAt;
  const zones = await rollupZones(client);
  const touchedBefore: number[] = [];
  for (const c of cand) if (c.pid !== null) touchedBefore.push(c.pid);
  touchedBefore.push(...missing);
  for (const r of rollupUpdaters) {
    if (deferred.includes(r.name)) continue;
    await r.before?.(client, {
      sellerId: run.sellerId,
      observedAt: t,
      previousAt: lastT,
      touched: touchedBefore,
      zones,
    });
  }
  return zones;
}

/** Roll-ups after the run's changes. */
export async function rollupsAfter(
  client: pg.PoolClient,
  run: IngestRun,
  lastT: Date | null,
  runId: number,
  cand: Candidate[],
  missing: number[],
  zones: string[],
  deferred: readonly string[],
  onStep?: (step: string, ms: number) => void,
): Promise<void> {
  const t = run.observedAt;
  const touched = [...cand.map((c) => c.id!), ...missing];
  for (const r of rollupUpdaters) {
    if (deferred.includes(r.name)) continue;
    const t0 = performance.now();
    await r.fn(client, { sellerId: run.sellerId, observedAt: t, previousAt: lastT, runId, touched, zones });
    onStep?.(`roll-up ${r.name}`, performance.now() - t0);
  }
}

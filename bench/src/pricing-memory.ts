// npm run pricing-memory -w @vigia/bench -- [--data-dir DIR] [--warm SELLER] [pivot ...]
// Memory of the in-memory pricing engine (apps/server/src/modules/pricing/model.ts) per pivot, measured
// on a seeded market (default: the bench's small database, /tmp/vigia-bench-small; see run.ts): the
// process's heap and array buffers after a full garbage collection, before and after loading each
// pivot's model (after loading another seller's model first, not counted, so that one-time costs of the
// first load are left out), with the model's rows and offers counted. Runs the built server's modules (npm run build).
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const built = (path: string) => new URL(`../../apps/server/dist/${path}`, import.meta.url).href;
if (!existsSync(new URL(built('main.js')))) {
  console.error('Falta el servidor compilado: ejecute primero npm run build');
  process.exit(2);
}
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('Ejecute con node --expose-gc (npm run pricing-memory -w @vigia/bench lo hace)');
  process.exit(2);
}
const { openDatabase } = (await import(
  built('db/database.js')
)) as typeof import('../../apps/server/src/db/database.js');
const { getPivotModel } = (await import(
  built('modules/pricing/model.js')
)) as typeof import('../../apps/server/src/modules/pricing/model.js');

const args = process.argv.slice(2);
const d = args.indexOf('--data-dir');
const dataDir = d >= 0 ? args[d + 1] : (process.env.BENCH_DATA_DIR ?? '/tmp/vigia-bench-small');
const w = args.indexOf('--warm');
const warm = w >= 0 ? Number(args[w + 1]) : 125; // another seller, loaded first, not counted
const pivots = args.filter((a, i) => /^\d+$/.test(a) && i !== d + 1 && i !== w + 1).map(Number);
if (!pivots.length) pivots.push(116, 5); // the demo customer's pivots
if (!existsSync(join(dataDir, 'pg'))) {
  console.error(`No hay base de datos sembrada en ${dataDir}/pg`);
  process.exit(2);
}

const MiB = 2 ** 20;
function used(): { heap: number; buffers: number } {
  for (let i = 0; i < 3; i++) gc?.();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, buffers: m.arrayBuffers };
}

const db = await openDatabase({ dataDir });
try {
  const kept: unknown[] = [];
  const { rows } = await db.pool.query<{ n: number }>(
    'select count(*)::int as n from products where seller_id = any($1::int[])',
    [pivots],
  );
  console.log(`Base de datos en ${dataDir}: ${rows[0].n} publicaciones de los pivotes ${pivots.join(', ')}`);
  // Warm-up: code, driver and caches that any first load sets up are not the pivot's own cost.
  kept.push(await getPivotModel(db.pool, warm));
  let before = used();
  for (const pivot of pivots) {
    const model = await getPivotModel(db.pool, pivot); // builds the read model in the database on first use
    kept.push(model);
    const after = used();
    const offers = model.cols.offerStart[model.rows.length];
    const heap = after.heap - before.heap;
    const buffers = after.buffers - before.buffers;
    const total = heap + buffers;
    console.log(
      `pivote ${pivot}: ${model.rows.length} filas, ${offers} ofertas; heap +${(heap / MiB).toFixed(1)} MiB, ` +
        `arreglos +${(buffers / MiB).toFixed(1)} MiB, total ${(total / MiB).toFixed(1)} MiB ` +
        `(${(total / model.rows.length / 1024).toFixed(2)} KiB por fila, ` +
        `${(total / (model.rows.length + offers)).toFixed(0)} B por fila u oferta)`,
    );
    before = after;
  }
} finally {
  await db.close();
}

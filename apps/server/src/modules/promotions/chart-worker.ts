import { parentPort } from 'node:worker_threads';
import { type ChartJob, computeChart } from './distribution.js';

// A thread of chart-pool.ts: computes the charts it is sent (the sellers' columns arrive as shared memory).

parentPort?.on('message', (job: ChartJob & { id: number }) => {
  try {
    parentPort?.postMessage({ id: job.id, result: computeChart(job) });
  } catch (err) {
    parentPort?.postMessage({ id: job.id, error: (err as Error).message ?? String(err) });
  }
});

import { describe, expect, it } from 'vitest';
import { fullCollection, MAX_GAP_MS, URGENT, watchMemory } from './memory.js';

// The API process's soft memory limit (platform/memory.ts): a full collection when the resident size is
// over the limit, at most one per gap, the gap doubling while collections free too little.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MiB = 2 ** 20;

describe('watchMemory', () => {
  it('collects when the resident size passes the limit, once per gap, and not below it', async () => {
    let size = 900 * MiB;
    const seen: { reason: string; before: number; after: number }[] = [];
    const w = watchMemory({
      softLimitBytes: 1000 * MiB,
      everyMs: 10,
      minGapMs: 80,
      rss: () => size,
      collect: () => {
        // the dead arrays' memory is unmapped a moment later, on V8's background thread
        setTimeout(() => {
          size = 700 * MiB;
        }, 1);
      },
      onCollect: (c) => seen.push(c),
    });
    try {
      await sleep(40);
      expect(w.collections).toBe(0); // under the limit
      size = 1100 * MiB;
      await sleep(40);
      expect(seen).toEqual([
        { reason: 'soft limit', before: 1100 * MiB, after: 700 * MiB, ms: expect.any(Number) },
      ]);
      size = 1100 * MiB; // over again at once: waits for the gap
      await sleep(30);
      expect(w.collections).toBe(1);
      await sleep(120);
      expect(w.collections).toBe(2);
    } finally {
      w.stop();
    }
  });

  it('doubles the gap while a collection leaves the size over the limit (live memory), and resets it', async () => {
    let size = 1100 * MiB;
    let live = 1050 * MiB;
    const at: number[] = [];
    const t0 = performance.now();
    const w = watchMemory({
      softLimitBytes: 1000 * MiB,
      everyMs: 5,
      minGapMs: 40,
      rss: () => size,
      collect: () => {
        at.push(performance.now() - t0);
        size = live;
      },
    });
    try {
      // collections at ~0, then gaps of 80, 160 and 320 ms (not 40): ~0, ~80, ~240, ~560
      await sleep(400);
      expect(at.length).toBe(3);
      expect(at[1] - at[0]).toBeGreaterThanOrEqual(78);
      expect(at[2] - at[1]).toBeGreaterThanOrEqual(158);
      // the live memory shrinks: the next collection brings the size under the limit, and the gap is 40 again
      live = 800 * MiB;
      await sleep(300);
      expect(w.collections).toBe(4);
      size = 1100 * MiB;
      const before = w.collections;
      await sleep(100);
      expect(w.collections).toBe(before + 1);
    } finally {
      w.stop();
    }
    expect(MAX_GAP_MS).toBeGreaterThan(40);
  });

  it('waits for a moment without requests, unless the size is far over the limit', async () => {
    let size = 1100 * MiB;
    let busy = true;
    const reasons: string[] = [];
    const w = watchMemory({
      softLimitBytes: 1000 * MiB,
      everyMs: 5,
      minGapMs: 20,
      rss: () => size,
      idle: () => !busy,
      collect: () => {
        size = 900 * MiB;
      },
      onCollect: (c) => reasons.push(c.reason),
    });
    try {
      await sleep(50);
      expect(w.collections).toBe(0); // over the limit, but requests in flight
      busy = false;
      await sleep(50);
      expect(reasons).toEqual(['soft limit']);
      busy = true;
      size = URGENT * 1000 * MiB + MiB; // far over: at once, requests or not
      await sleep(60);
      expect(reasons).toEqual(['soft limit', 'soft limit, under load']);
    } finally {
      w.stop();
    }
  });

  it('collects when asked at the next moment without requests, whatever the size', async () => {
    let busy = true;
    const reasons: string[] = [];
    const w = watchMemory({
      softLimitBytes: 1000 * MiB,
      everyMs: 5,
      rss: () => 500 * MiB, // under the limit: only the asked collection
      idle: () => !busy,
      collect: () => {},
      onCollect: (c) => reasons.push(c.reason),
    });
    try {
      w.collectWhenIdle('warm-ups done');
      await sleep(40);
      expect(w.collections).toBe(0); // requests in flight
      busy = false;
      await sleep(40);
      expect(reasons).toEqual(['warm-ups done']);
      await sleep(40);
      expect(w.collections).toBe(1); // once
    } finally {
      w.stop();
    }
  });

  it('with no limit never collects, not even when asked', async () => {
    let runs = 0;
    const w = watchMemory({ softLimitBytes: 0, everyMs: 5, rss: () => 5000 * MiB, collect: () => runs++ });
    w.collectWhenIdle('warm-ups done');
    await sleep(30);
    expect(runs).toBe(0);
    w.stop();
  });

  it("V8's full collection frees an unreachable array", async () => {
    const gc = fullCollection();
    let ref: WeakRef<Float64Array> | undefined;
    (() => {
      ref = new WeakRef(new Float64Array(1 << 20));
    })();
    await new Promise((r) => setImmediate(r));
    gc();
    expect(ref?.deref()).toBeUndefined();
  });
});

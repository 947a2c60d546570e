import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import type { Queryable } from '../../db/database.js';

// Pictures exist only for what the market names (issue 26, finding 5). The picture routes are public by
// design — an <img> sends no token — so what stops a client from making the server draw (and store) a
// picture for every made-up name is that a URL is answered only when a listing (products.image_url) or
// a brand's reference picture (reference_images.image_url) names it. The answers are remembered in a
// bounded LRU (known: 10 minutes; unknown: 30 seconds, so a listing just ingested shows soon), so a
// picture shown on every screen costs one indexed look-up per process now and then, and a flood of
// made-up names costs at most one look-up each.

const answers = new LRUCache<string, boolean>({ max: 50_000, ttl: 10 * 60_000 });

/** Whether a listing or a reference picture of the market names this picture URL (its path). */
export async function knownPicture(db: Queryable, url: string): Promise<boolean> {
  const cached = answers.get(url);
  if (cached !== undefined) return cached;
  const { rows } = await db.query<{ known: boolean }>(
    `select exists (select 1 from products where image_url = $1)
            or exists (select 1 from reference_images where image_url = $1) as known`,
    [url],
  );
  answers.set(url, rows[0].known, rows[0].known ? {} : { ttl: 30_000 });
  return rows[0].known;
}

/** Forgets the remembered answers (tests; a seeding that adds listings in this process). */
export function forgetKnownPictures(): void {
  answers.clear();
}

// ───────────────────────────── the disk cache's bound ─────────────────────────────

/** Most files kept in a picture cache directory; past it the oldest tenth is deleted. */
export const PICTURE_CACHE_MAX_FILES = 20_000;
const counts = new Map<string, number>();
const trimming = new Set<string>();

/**
 * Counts a file written into a cache directory and, past `max` files, deletes the least recently
 * written tenth (a listing whose picture changed leaves its old file behind: the cache stays bounded).
 */
export async function notePictureCached(dir: string, max = PICTURE_CACHE_MAX_FILES): Promise<void> {
  if (!counts.has(dir)) counts.set(dir, (await readdir(dir).catch(() => [])).length);
  else counts.set(dir, (counts.get(dir) ?? 0) + 1);
  if ((counts.get(dir) ?? 0) <= max || trimming.has(dir)) return;
  trimming.add(dir);
  try {
    const names = await readdir(dir);
    const files = await Promise.all(
      names.map(async (name) => ({ name, t: (await stat(join(dir, name)).catch(() => null))?.mtimeMs ?? 0 })),
    );
    files.sort((a, b) => a.t - b.t);
    const drop = files.slice(0, Math.max(1, files.length - Math.floor(max * 0.9)));
    for (const f of drop) await rm(join(dir, f.name), { force: true });
    counts.set(dir, files.length - drop.length);
  } finally {
    trimming.delete(dir);
  }
}

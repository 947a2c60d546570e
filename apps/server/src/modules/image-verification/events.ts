// The hook point for "a picture check turned incorrect" (notifications subscribe here; this feature
// depends on no notification code). Listeners run after the measure is stored, outside its transaction;
// a listener that throws is logged and does not stop the others.

import type pg from 'pg';

export interface CheckClassifiedEvent {
  checkId: number;
  productId: number;
  sellerId: number;
  /** the instant the check was made (its day is a day of each reader's zone) */
  checkedAt: Date;
  imageUrl: string;
  referenceUrl: string;
  similarity: number;
  classification: 'correct' | 'forReview' | 'incorrect';
}

export type CheckClassifiedListener = (
  events: CheckClassifiedEvent[],
  ctx: { pool: pg.Pool },
) => Promise<void> | void;

const listeners: { name: string; fn: CheckClassifiedListener }[] = [];

/** Subscribes to measured checks (every class; filter on `classification === 'incorrect'`). */
export function onCheckClassified(name: string, fn: CheckClassifiedListener): void {
  if (!listeners.some((l) => l.name === name)) listeners.push({ name, fn });
}

export async function emitCheckClassified(
  events: CheckClassifiedEvent[],
  log: { error(obj: object, msg?: string): void },
  pool: pg.Pool,
): Promise<void> {
  if (!events.length) return;
  for (const l of listeners) {
    try {
      await l.fn(events, { pool });
    } catch (err) {
      log.error({ err, listener: l.name }, 'image verification: check-classified listener failed');
    }
  }
}

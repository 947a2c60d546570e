import { useSyncExternalStore } from 'react';
import { subscribeExporter } from './exporter.js';
import { localStore, STORAGE_KEYS } from './storage.js';

// Unread notifications count (seed 000 §3): kept in browser storage, default 0. The exporter's
// 'notification' event adds one; the notifications screen sets it when it reads the list.

const listeners = new Set<() => void>();

export function getNotificationCount(): number {
  const n = Number(localStore().getString(STORAGE_KEYS.notificationsCount) ?? 0);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

export function setNotificationCount(count: number): void {
  localStore().setString(STORAGE_KEYS.notificationsCount, String(Math.max(0, Math.floor(count))));
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useNotificationCount(): number {
  return useSyncExternalStore(subscribe, getNotificationCount, getNotificationCount);
}

/** Counts pushed notifications; call once at start-up. */
export function trackNotifications(): () => void {
  return subscribeExporter('notification', () => setNotificationCount(getNotificationCount() + 1));
}

import { notificationsRoutes } from '@vigia/domain';
import { useSyncExternalStore } from 'react';
import { callRoute } from './api-client.js';
import { subscribeExporter } from './exporter.js';
import { localStore, STORAGE_KEYS } from './storage.js';

// Unread notifications count (seed 000 §3): kept in browser storage, default 0. The exporter's
// 'notification' event adds one; the server's count replaces it whenever it is read (the bell on
// mount and on window focus, the notifications screen on every load and mark-as-read).

const listeners = new Set<() => void>();
/** Listeners of pushed notifications (the bell's drop-down refreshes its latest). */
const pushedListeners = new Set<() => void>();

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
  return subscribeExporter('notification', () => {
    setNotificationCount(getNotificationCount() + 1);
    for (const l of pushedListeners) l();
  });
}

/** Runs `listener` after each pushed notification; returns the unsubscribe function. */
export function onNotificationPushed(listener: () => void): () => void {
  pushedListeners.add(listener);
  return () => {
    pushedListeners.delete(listener);
  };
}

/** Replaces the stored count with the server's (errors leave the stored count as it is). */
export async function syncNotificationCount(signal?: AbortSignal): Promise<void> {
  try {
    const { unread } = await callRoute(notificationsRoutes.unreadCount, {}, { notify: false, signal });
    setNotificationCount(unread);
  } catch {
    // offline or signed out: the stored count stays
  }
}

import { FLASH_KEY, sessionStore } from './storage.js';

// The one channel to the shell's snackbar (bottom right, 5 s). Plain module so non-React code (the API
// client, the session) can report to the user; the shell's <SnackbarHost> listens.

export type NoticeSeverity = 'success' | 'info' | 'warning' | 'error';
export interface Notice {
  id: number;
  message: string;
  severity: NoticeSeverity;
}

type Listener = (notice: Notice) => void;
const listeners = new Set<Listener>();
let nextId = 1;
const pending: Notice[] = [];

/** Shows a message in the snackbar. Messages sent before the shell mounts are delivered when it does. */
export function notify(message: string, severity: NoticeSeverity = 'error'): void {
  const notice = { id: nextId++, message, severity };
  if (listeners.size === 0) {
    pending.push(notice);
    return;
  }
  for (const l of listeners) l(notice);
}

export function onNotice(listener: Listener): () => void {
  listeners.add(listener);
  for (const n of pending.splice(0)) listener(n);
  return () => {
    listeners.delete(listener);
  };
}

/** Keeps a message across a full page reload; the snackbar shows it after start-up. */
export function flash(message: string, severity: NoticeSeverity = 'warning'): void {
  sessionStore().set(FLASH_KEY, { message, severity });
}

/** Delivers (once) a message saved by flash() before the last reload. */
export function deliverFlash(): void {
  const store = sessionStore();
  const saved = store.get<{ message: string; severity: NoticeSeverity } | null>(FLASH_KEY, null);
  if (!saved) return;
  store.remove(FLASH_KEY);
  notify(saved.message, saved.severity);
}

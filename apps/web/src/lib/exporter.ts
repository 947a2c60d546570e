import {
  type ExporterNotification,
  type ExporterServerEvents,
  type ExporterTaskProgress,
  exporterNotification,
  exporterTaskProgress,
  importProgress,
  MESSAGES,
} from '@vigia/domain';
import { io, type Socket } from 'socket.io-client';
import type { ZodType } from 'zod';

// The real-time "data exporter" connection (seed 000 §4, 001 §7): socket.io to the same origin with the
// token as a query parameter. Opened when a token is stored and 1 s after start when already logged in,
// closed on logout. Features subscribe to its events; handlers survive reconnections and token changes.

/** Payload of each exporter event (the contract is ExporterServerEvents in @vigia/domain). */
export type ExporterEvents = { [E in keyof ExporterServerEvents]: Parameters<ExporterServerEvents[E]>[0] };
export type ExporterEventName = keyof ExporterEvents;
export type { ExporterNotification, ExporterTaskProgress };

/** The contract's schema of each event: a payload is parsed before any handler sees it. */
const EVENT_SCHEMAS: { [E in ExporterEventName]: ZodType<ExporterEvents[E]> } = {
  'task:progress': exporterTaskProgress,
  'task:created': exporterTaskProgress,
  'task:done': exporterTaskProgress,
  'task:failed': exporterTaskProgress,
  notification: exporterNotification,
  'import:progress': importProgress,
};

type AnyHandler = (payload: never) => void;
const handlers = new Map<ExporterEventName, Set<AnyHandler>>();
let socket: Socket<ExporterServerEvents> | null = null;
let currentToken: string | null = null;
let loggedFailure = false;

function attach(s: Socket<ExporterServerEvents>): void {
  for (const [event, set] of handlers) {
    for (const h of set) (s as Socket).on(event as string, h as (p: unknown) => void);
  }
}

/** Opens (or re-opens with a new token) the exporter connection. */
export function connectExporter(token: string): void {
  if (socket && currentToken === token) return;
  disconnectExporter();
  if (typeof window === 'undefined') return; // node (unit tests): no same origin to connect to
  currentToken = token;
  loggedFailure = false;
  const s: Socket<ExporterServerEvents> = io({
    query: { token },
    transports: ['websocket', 'polling'],
    reconnectionDelayMax: 30_000,
  });
  s.on('connect', () => {
    loggedFailure = false;
  });
  s.on('connect_error', () => {
    // Once per outage, not once per reconnection attempt.
    if (!loggedFailure) console.error(MESSAGES.exporterCannotConnect);
    loggedFailure = true;
  });
  attach(s);
  socket = s;
}

/** Closes the exporter connection (logout). */
export function disconnectExporter(): void {
  if (socket) {
    socket.removeAllListeners();
    socket.disconnect();
  }
  socket = null;
  currentToken = null;
}

export function isExporterConnected(): boolean {
  return socket?.connected ?? false;
}

/** Listens to an exporter event; returns the unsubscribe function (use it as an effect's cleanup). */
export function subscribeExporter<E extends ExporterEventName>(
  event: E,
  handler: (payload: ExporterEvents[E]) => void,
): () => void {
  let set = handlers.get(event);
  if (!set) {
    set = new Set();
    handlers.set(event, set);
  }
  const schema = EVENT_SCHEMAS[event] as ZodType<ExporterEvents[E]>;
  // A payload outside the contract is logged and dropped, never handed to a screen.
  const h = ((payload: unknown) => {
    const parsed = schema.safeParse(payload);
    if (parsed.success) handler(parsed.data);
    else console.error(`exporter: evento ${event} fuera del contrato`, parsed.error.issues);
  }) as AnyHandler;
  set.add(h);
  (socket as Socket | null)?.on(event as string, h as (p: unknown) => void);
  return () => {
    set.delete(h);
    (socket as Socket | null)?.off(event as string, h as (p: unknown) => void);
  };
}

/** Start-up: opens the connection 1 s after start when a token is already stored. */
export function startExporter(getToken: () => string | null, delayMs = 1000): () => void {
  const timer = setTimeout(() => {
    const token = getToken();
    if (token) connectExporter(token);
  }, delayMs);
  return () => clearTimeout(timer);
}

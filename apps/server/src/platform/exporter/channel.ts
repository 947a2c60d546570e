import type { Server as HttpServer } from 'node:http';
import type { ExporterServerEvents } from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import type { Server } from 'socket.io';

// The exporter channel (seed 000 §4, §7): socket.io on the app's own port, path /socket.io, the JWT in
// the `token` query parameter. Each connection joins the room of its user; the server pushes export
// task progress and notifications to that room only.
//
// Features use emitToUser(); they never touch socket.io directly.

/** Client → server events: none yet (the client only listens). */
export type ExporterClientEvents = Record<string, never>;
/** Data kept per connection. */
export interface ExporterSocketData {
  userId: number;
  orgId: number;
}
export type ExporterServer = Server<
  ExporterClientEvents,
  ExporterServerEvents,
  Record<string, never>,
  ExporterSocketData
>;
export type ExporterEvent = keyof ExporterServerEvents;
export type ExporterPayload<E extends ExporterEvent> = Parameters<ExporterServerEvents[E]>[0];

// The socket.io server of each app, by its HTTP server: `app.server` is the same object in every
// encapsulated plugin context, so any feature module can reach the channel.
const servers = new WeakMap<HttpServer, ExporterServer>();

export function attachExporterServer(httpServer: HttpServer, io: ExporterServer): void {
  servers.set(httpServer, io);
}
export function detachExporterServer(httpServer: HttpServer): void {
  servers.delete(httpServer);
}

export const userRoom = (userId: number) => `user:${userId}`;

function serverOf(app: FastifyInstance): ExporterServer | undefined {
  return servers.get(app.server as HttpServer);
}

/**
 * Pushes an event to every open connection of one user (and nobody else). Returns false when the
 * channel is not running (e.g. the exporter plugin is not registered); the caller need not care.
 */
export function emitToUser<E extends ExporterEvent>(
  app: FastifyInstance,
  userId: number,
  event: E,
  payload: ExporterPayload<E>,
): boolean {
  const io = serverOf(app);
  if (!io) return false;
  // socket.io's typed emit needs the tuple of the event's parameters.
  (io.to(userRoom(userId)).emit as (ev: E, p: ExporterPayload<E>) => boolean)(event, payload);
  return true;
}

/** Closes every connection of a user (after a password change their tokens are revoked). */
export function disconnectUser(app: FastifyInstance, userId: number): void {
  serverOf(app)?.in(userRoom(userId)).disconnectSockets(true);
}

/** Number of open connections of a user (tests, diagnostics). */
export async function connectionsOf(app: FastifyInstance, userId: number): Promise<number> {
  const io = serverOf(app);
  if (!io) return 0;
  return (await io.in(userRoom(userId)).fetchSockets()).length;
}

import type { Server as HttpServer } from 'node:http';
import type { ExporterServerEvents } from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
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
  /** the handshake token's users.token_version, session and expiry (unix s): the socket ends with them */
  ver: number;
  sid: string | null;
  exp: number;
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

/** Closes the connections opened with one session's tokens (after its logout). */
export function disconnectSession(app: FastifyInstance, userId: number, sid: string): void {
  const io = serverOf(app);
  if (!io) return;
  for (const socket of io.of('/').sockets.values())
    if (socket.data.userId === userId && socket.data.sid === sid) socket.disconnect(true);
}

/** Number of open connections of a user (tests, diagnostics). */
export async function connectionsOf(app: FastifyInstance, userId: number): Promise<number> {
  const io = serverOf(app);
  if (!io) return 0;
  return (await io.in(userRoom(userId)).fetchSockets()).length;
}

/**
 * Closes the connections whose authorisation ended since their handshake (issue 26, finding 8): the
 * user deactivated or gone, a password change (token_version), a logout of their session — in this
 * process or any other (all of it is in PostgreSQL). One query for every open connection of the process.
 * Returns how many were closed.
 */
export async function recheckSockets(io: ExporterServer, pool: Pool): Promise<number> {
  const sockets = [...io.of('/').sockets.values()];
  if (!sockets.length) return 0;
  const { rows } = await pool.query<{ id: number; ok_versions: number[] | null; revoked: string[] | null }>(
    `select u.id, case when u.is_active then array[u.token_version] end as ok_versions,
            (select array_agg(r.sid) from revoked_sessions r where r.user_id = u.id and r.sid = any($2)) as revoked
       from users u where u.id = any($1)`,
    [[...new Set(sockets.map((s) => s.data.userId))], sockets.map((s) => s.data.sid).filter(Boolean)],
  );
  const byUser = new Map(rows.map((r) => [r.id, r]));
  const now = Math.floor(Date.now() / 1000);
  let closed = 0;
  for (const socket of sockets) {
    const u = byUser.get(socket.data.userId);
    const valid =
      u?.ok_versions?.includes(socket.data.ver) &&
      !(socket.data.sid && u.revoked?.includes(socket.data.sid)) &&
      socket.data.exp > now;
    if (!valid) {
      socket.disconnect(true);
      closed++;
    }
  }
  return closed;
}

/** recheckSockets on an app's channel now (tests, diagnostics); 0 when the channel is not running. */
export async function recheckConnections(app: FastifyInstance): Promise<number> {
  const io = serverOf(app);
  return io ? recheckSockets(io, app.deps.db.pool) : 0;
}

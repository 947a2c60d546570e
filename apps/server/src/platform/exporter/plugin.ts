import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/postgres-adapter';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { Server } from 'socket.io';
import { verifyToken } from '../../lib/jwt.js';
import { loadPrincipal } from '../../plugins/auth.js';
import {
  attachExporterServer,
  detachExporterServer,
  type ExporterServer,
  recheckSockets,
  userRoom,
} from './channel.js';

export const EXPORTER_PATH = '/socket.io';
/** How often every open connection's user, token generation and session are checked again. */
export const SOCKET_RECHECK_MS = 15_000;

/**
 * The pool as the socket.io adapter uses it (`connect` for its LISTEN connection, `query` to publish).
 * When that connection is lost (the database restarted), the adapter takes a new one but never gives
 * the dead one back, and `pool.end()` would then wait for it forever: here it is released (destroyed)
 * as soon as it ends. On a normal close the adapter removes this listener and releases it itself.
 */
function adapterPool(pool: pg.Pool): pg.Pool {
  return {
    query: pool.query.bind(pool),
    connect: async () => {
      const client = await pool.connect();
      client.once('end', () => client.release(true));
      return client;
    },
  } as unknown as pg.Pool;
}

/** The token of a handshake: `?token=` (the seed's way) or socket.io's `auth: { token }`. */
function handshakeToken(handshake: {
  query: Record<string, unknown>;
  auth: Record<string, unknown>;
}): string | null {
  const raw = handshake.query.token ?? handshake.auth?.token;
  const token = Array.isArray(raw) ? raw[0] : raw;
  if (typeof token !== 'string' || token === '') return null;
  return token.replace(/^(?:JWT|Bearer)\s+/i, '');
}

/**
 * The real-time exporter channel on the app's HTTP server. A connection needs a valid, unrevoked
 * token of an active user (otherwise it is refused with Error('unauthorized')) and joins `user:<id>`.
 *
 * Several processes share the channel through PostgreSQL (@socket.io/postgres-adapter): an event emitted
 * to a user's room in one process is sent with NOTIFY on the channel `socket.io#/` and delivered by every
 * process to its own connections of that room (a payload over 8000 bytes goes through the table
 * socket_io_attachments, migration 211); disconnecting a user's sockets reaches every process too. The
 * adapter holds one connection of the pool for its LISTEN and sends a heartbeat every 5 s.
 */
export default async function exporterPlugin(app: FastifyInstance) {
  const httpServer = app.server as HttpServer;
  const io: ExporterServer = new Server(httpServer, {
    path: EXPORTER_PATH,
    serveClient: false,
    // The web app is served by this same server; no cross-origin access.
    cors: undefined,
    pingInterval: 25_000,
    pingTimeout: 20_000,
    maxHttpBufferSize: 64 * 1024,
    adapter: createAdapter(adapterPool(app.deps.db.pool), {
      errorHandler: (err) => app.log.warn({ err }, 'exporter: socket.io adapter error'),
    }),
  });

  io.use((socket, next) => {
    const token = handshakeToken(socket.handshake);
    const claims = token ? verifyToken(token, app.deps.config.JWT_SECRET) : null;
    if (!claims) return next(new Error('unauthorized'));
    loadPrincipal(app.deps.db.pool, claims).then(
      (principal) => {
        if (!principal) return next(new Error('unauthorized'));
        socket.data.userId = principal.userId;
        socket.data.orgId = principal.orgId;
        socket.data.ver = claims.ver;
        socket.data.sid = claims.sid ?? null;
        socket.data.exp = claims.exp;
        next();
      },
      (err) => {
        app.log.error({ err }, 'exporter: could not load the principal');
        next(new Error('unauthorized'));
      },
    );
  });

  io.on('connection', (socket) => {
    void socket.join(userRoom(socket.data.userId));
    // the connection ends when its token does (a refreshed token opens a new one: web lib/exporter.ts)
    const expiry = setTimeout(
      () => socket.disconnect(true),
      Math.max(0, socket.data.exp * 1000 - Date.now()),
    );
    expiry.unref();
    socket.once('disconnect', () => clearTimeout(expiry));
  });

  let rechecking = false;
  const recheck = setInterval(() => {
    if (rechecking) return;
    rechecking = true;
    recheckSockets(io, app.deps.db.pool)
      .catch((err) => app.log.warn({ err }, 'exporter: could not recheck the connections'))
      .finally(() => {
        rechecking = false;
      });
  }, SOCKET_RECHECK_MS);
  recheck.unref();

  attachExporterServer(httpServer, io);

  // Open websockets would keep the HTTP server from closing: end them before Fastify closes it.
  app.addHook('preClose', async () => {
    clearInterval(recheck);
    detachExporterServer(httpServer);
    // this process's sockets only (without `local` the adapter would disconnect every process's)
    io.local.disconnectSockets(true);
    io.engine.close();
    // tells the other processes this one is gone and gives its LISTEN connection back to the pool
    await io.of('/').adapter.close();
  });
}

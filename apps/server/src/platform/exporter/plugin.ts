import type { Server as HttpServer } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import { verifyToken } from '../../lib/jwt.js';
import { loadPrincipal } from '../../plugins/auth.js';
import { attachExporterServer, detachExporterServer, type ExporterServer, userRoom } from './channel.js';

export const EXPORTER_PATH = '/socket.io';

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
  });

  attachExporterServer(httpServer, io);

  // Open websockets would keep the HTTP server from closing: end them before Fastify closes it.
  app.addHook('preClose', async () => {
    detachExporterServer(httpServer);
    io.disconnectSockets(true);
    io.engine.close();
  });
}

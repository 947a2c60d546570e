// Public face of the exporter feature (the socket channel): closing a user's sockets.
export { disconnectSession, disconnectUser, emitToUser } from './channel.js';

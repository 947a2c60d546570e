// Public face of the exporter feature (the socket channel): closing a user's sockets.
export { disconnectUser, emitToUser } from './channel.js';

// Public face of the exporter feature (the socket channel): closing a user's sockets.
export { disconnectUser } from './channel.js';
export { emitToUser } from './channel.js';

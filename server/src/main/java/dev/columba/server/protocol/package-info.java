/**
 * The PostgreSQL frontend/backend protocol v3 as values: the messages a client sends
 * ({@link dev.columba.server.protocol.FrontendMessage}) and the server sends
 * ({@link dev.columba.server.protocol.BackendMessage}), their Netty decoder and encoder, and type OIDs.
 * Knows bytes and framing, not SQL or sessions.
 */
package dev.columba.server.protocol;

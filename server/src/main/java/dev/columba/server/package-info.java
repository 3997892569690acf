/**
 * The PostgreSQL-wire server: {@link dev.columba.server.PgServer} listens on a TCP port and gives each client
 * connection its own embedded Columba connection; {@link dev.columba.server.ServerMain} is {@code columba server}.
 * The bytes on the wire are {@code protocol}'s, the meaning of a conversation is {@code session}'s.
 */
package dev.columba.server;

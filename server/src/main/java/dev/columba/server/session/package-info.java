/**
 * One client conversation: startup and authentication, the simple and extended query protocols mapped onto
 * an embedded Columba JDBC connection, transaction status, cancel, and the text and binary forms of values.
 * Knows messages, not bytes.
 */
package dev.columba.server.session;

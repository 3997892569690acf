/**
 * {@code columba repair}: checks a database's write-ahead log by opening the database, and on
 * request recovers a damaged log to its last consistent point. The recovery itself is storage's
 * ({@code WriteAheadLog}); this is its front end.
 */
package dev.columba.cli.repair;

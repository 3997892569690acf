/**
 * {@code columba inspect}: dumps Columba's files (database directory, data file, write-ahead log
 * segments, control file, properties, columnstore rowgroup and dictionary files) for people
 * debugging a database, damaged or crashed ones included. It reads the files directly, read-only,
 * and never opens the database, so it neither recovers, locks nor writes anything; it does not repair.
 */
package dev.columba.cli.inspect;

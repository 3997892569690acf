/**
 * {@code columba sql}: a small interactive SQL shell over the embedded JDBC driver — statement
 * splitting, aligned result tables, statement messages (STATISTICS IO / TIME) and errors with their
 * SQLSTATE. It talks to the database only through {@code java.sql}.
 */
package dev.columba.cli.sql;

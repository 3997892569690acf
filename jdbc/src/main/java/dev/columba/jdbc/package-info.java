/**
 * The embedded JDBC driver: {@code jdbc:columba:<dir>} and {@code jdbc:columba:mem:<name>} URLs,
 * connections over planner sessions, statements, result sets over batches, and database metadata
 * from the catalog. It owns the JDBC contract (SQLSTATEs, warnings, closing rules); it does not
 * plan or execute SQL, which the planner's {@code Session} does.
 */
package dev.columba.jdbc;

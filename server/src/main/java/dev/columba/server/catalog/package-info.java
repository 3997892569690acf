/**
 * PostgreSQL's system catalog ({@code pg_catalog}) as psql and pgJDBC query it, answered by the server from a
 * snapshot of Columba's catalog; the SQL never reaches Columba. Knows catalog queries and their results, not the
 * protocol's messages or sessions.
 */
package dev.columba.server.catalog;

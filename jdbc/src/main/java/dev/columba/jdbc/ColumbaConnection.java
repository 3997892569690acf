package dev.columba.jdbc;

import java.sql.SQLException;

/**
 * What a Columba connection offers beyond JDBC, reached with
 * {@code connection.unwrap(ColumbaConnection.class)}.
 */
public interface ColumbaConnection {

    /**
     * An appender that loads rows into {@code table} without SQL per row, as DuckDB's appender
     * does: values are appended one by one with typed methods, and each flush inserts the rows
     * appended since the last one as one statement through the path a PreparedStatement's
     * {@code executeBatch} takes (see {@link ColumbaAppender}).
     *
     * @param table the table's name (as SQL names it, without quotes; case is ignored)
     * @throws SQLException 42P01 if there is no such table, 08003 if the connection is closed
     */
    ColumbaAppender appender(String table) throws SQLException;
}

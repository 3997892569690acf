package dev.columba.jdbc;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;

/**
 * Appends rows to one table, value by value, like DuckDB's appender: a row is its columns' values
 * in table order (every column but IDENTITY and computed ones, which the insert fills; see
 * {@link #columns()}), each given by a typed method or {@link #appendNull()}, then
 * {@link #endRow()}. {@link #flush()} inserts the rows ended since the last flush as one
 * statement, through the path {@code executeBatch} of {@code INSERT INTO t (columns) VALUES (?, ...)}
 * takes: one insert operator over all rows (a columnstore table's bulk path from its bulk
 * threshold on), one transaction committed once in autocommit mode; with autocommit off, the rows
 * join the connection's open transaction, which {@code commit} ends. Every
 * {@value #AUTO_FLUSH_ROWS} ended rows are flushed on their own, and {@link #close()} flushes the rest.
 *
 * <p>Errors. A value of the wrong kind for its column (a string for an INT column) fails the
 * append at once with 42804 naming the column, and the unfinished row is dropped; rows ended
 * before stay. A failing flush (a string too long for its column, 22001; NULL in a NOT NULL
 * column, 23502; a duplicate key, 23505; a number out of its column's range, 22003) inserts none of
 * its rows — they are dropped — and names the failing row; the rows of earlier flushes stay
 * committed, and the appender can go on. Not thread-safe: one thread appends.
 */
public interface ColumbaAppender extends AutoCloseable {
    /** Rows ended before the appender flushes on its own: above a columnstore's default bulk threshold (102,400). */
    int AUTO_FLUSH_ROWS = 131_072;

    /** The table's columns a row gives values to, in order: names as the catalog spells them. */
    List<String> columns() throws SQLException;

    /** The next column's value is NULL. */
    ColumbaAppender appendNull() throws SQLException;

    /** For a BOOLEAN column. */
    ColumbaAppender appendBoolean(boolean value) throws SQLException;

    /** For an INT, BIGINT, DOUBLE or DECIMAL column. */
    ColumbaAppender appendInt(int value) throws SQLException;

    /** For an INT (22003 at the flush if out of its range), BIGINT, DOUBLE or DECIMAL column. */
    ColumbaAppender appendLong(long value) throws SQLException;

    /** For a DOUBLE or DECIMAL column (a DECIMAL must hold the value exactly, else 42804 at the flush). */
    ColumbaAppender appendDouble(double value) throws SQLException;

    /** For a DECIMAL, DOUBLE, INT or BIGINT column, held exactly (no rounding); null appends NULL. */
    ColumbaAppender appendDecimal(BigDecimal value) throws SQLException;

    /** For a VARCHAR or CHAR column; null appends NULL. */
    ColumbaAppender appendString(String value) throws SQLException;

    /** For a DATE column; null appends NULL. */
    ColumbaAppender appendDate(LocalDate value) throws SQLException;

    /** For a TIMESTAMP column; null appends NULL. */
    ColumbaAppender appendTimestamp(LocalDateTime value) throws SQLException;

    /** Ends the row: every column must have its value. */
    ColumbaAppender endRow() throws SQLException;

    /**
     * A whole row: each value appended by its Java type (Boolean, Integer, Short, Byte, Long, Double,
     * Float, BigDecimal, String, LocalDate, LocalDateTime, {@code java.sql.Date},
     * {@code java.sql.Timestamp}; null for NULL), then the row ended.
     */
    ColumbaAppender appendRow(Object... values) throws SQLException;

    /** Inserts the rows ended since the last flush (see the class comment); nothing when there are none. */
    void flush() throws SQLException;

    /**
     * Flushes, then closes the appender; an unfinished row is an error (22023), its values dropped,
     * and the appender is closed all the same. Closing again does nothing.
     */
    @Override
    void close() throws SQLException;
}

package dev.columba.jdbc;

import dev.columba.planner.session.StatementStatistics;
import java.sql.SQLException;
import java.util.List;

/**
 * What a Columba statement tells beyond JDBC, reached with
 * {@code statement.unwrap(ColumbaStatement.class)}: the typed statistics and the messages of the
 * statement it executed last. Both are complete once that statement finished: at once for updates,
 * DDL and commands; for a query once its result set was read to the end, closed, or buffered
 * because the connection ran something else. Until then they are empty.
 */
public interface ColumbaStatement {

    /**
     * The last statement's I/O per table (including the read-ahead used and wasted counters that
     * STATISTICS IO does not print) and its CPU and elapsed time; {@link StatementStatistics#NONE}
     * before it finished.
     *
     * @throws SQLException 08003 if the statement is closed
     */
    StatementStatistics statistics() throws SQLException;

    /**
     * The last statement's messages, exactly as the session produced them (STATISTICS IO / TIME
     * lines, PRINT output, DBCC's completion line); the same text as the statement's SQLWarnings.
     *
     * @throws SQLException 08003 if the statement is closed
     */
    List<String> messages() throws SQLException;
}

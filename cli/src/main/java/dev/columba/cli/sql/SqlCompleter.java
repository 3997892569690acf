package dev.columba.cli.sql;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;

/**
 * Tab completion in the shell: SQL keywords, the shell's backslash commands, and the names of the
 * database's tables, views and columns, read from {@link DatabaseMetaData} at each completion so that
 * a table created a moment ago is offered.
 */
final class SqlCompleter implements Completer {
    static final List<String> KEYWORDS = List.of("SELECT", "FROM", "WHERE", "GROUP BY", "ORDER BY", "HAVING", "LIMIT",
            "FETCH FIRST", "ROWS ONLY", "OFFSET", "DISTINCT", "AS", "AND", "OR", "NOT", "IN", "EXISTS", "BETWEEN", "LIKE",
            "IS NULL", "IS NOT NULL", "CASE", "WHEN", "THEN", "ELSE", "END", "JOIN", "INNER JOIN", "LEFT JOIN", "RIGHT JOIN",
            "FULL OUTER JOIN", "CROSS JOIN", "ON", "USING", "UNION", "UNION ALL", "EXCEPT", "INTERSECT", "WITH", "OVER",
            "PARTITION BY", "INSERT INTO", "VALUES", "UPDATE", "SET", "DELETE FROM", "TRUNCATE TABLE", "CREATE TABLE",
            "CREATE VIEW", "CREATE INDEX", "CREATE CLUSTERED COLUMNSTORE INDEX", "DROP TABLE", "DROP VIEW", "DROP INDEX",
            "ALTER TABLE", "ALTER INDEX", "PRIMARY KEY", "UNIQUE", "CHECK", "DEFAULT", "NULL", "COPY", "EXPLAIN", "CHECKPOINT",
            "SET STATISTICS IO ON", "SET STATISTICS TIME ON", "DBCC DROPCLEANBUFFERS", "COUNT", "SUM", "AVG", "MIN", "MAX",
            "CAST", "COALESCE", "NULLIF", "EXTRACT", "SUBSTRING", "DATE", "TIMESTAMP", "INTERVAL", "INT", "BIGINT",
            "DECIMAL", "DOUBLE", "VARCHAR", "BOOLEAN");
    static final List<String> COMMANDS = List.of("\\d", "\\dt", "\\timing", "\\x", "\\pset", "\\o", "\\i", "\\q", "\\?");

    private final Connection connection;

    SqlCompleter(Connection connection) {
        this.connection = connection;
    }

    @Override
    public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
        for (String command : COMMANDS) {
            candidates.add(new Candidate(command, command, "commands", null, null, null, true));
        }
        for (String keyword : KEYWORDS) {
            candidates.add(new Candidate(keyword, keyword, "keywords", null, null, null, !keyword.contains(" ")));
        }
        for (String name : names()) {
            candidates.add(new Candidate(name, name, "names", null, null, null, true));
        }
    }

    /** The tables', views' and columns' names, or none if the database cannot say. */
    Set<String> names() {
        Set<String> names = new TreeSet<>();
        try {
            DatabaseMetaData metadata = connection.getMetaData();
            // User tables and views; the system views (schema sys) are not offered.
            try (ResultSet tables = metadata.getTables(null, null, "%", new String[] {"TABLE", "VIEW"})) {
                while (tables.next()) {
                    names.add(tables.getString("TABLE_NAME"));
                }
            }
            try (ResultSet columns = metadata.getColumns(null, "", "%", "%")) {
                while (columns.next()) {
                    names.add(columns.getString("COLUMN_NAME"));
                }
            }
        } catch (SQLException unavailable) {
            // Completion offers the keywords alone; the error shows when a statement is run.
        }
        return names;
    }
}

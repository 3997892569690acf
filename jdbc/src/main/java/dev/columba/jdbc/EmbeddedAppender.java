package dev.columba.jdbc;

import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.StringJoiner;

/**
 * The appender of one table on one connection ({@link ColumbaAppender}). Rows are buffered on the
 * heap as the values a PreparedStatement would bind, and each flush runs
 * {@code INSERT INTO t (columns) VALUES (?, ...)} for all of them as one batch of the session.
 * The columns and their types are read once, when the appender is made.
 */
final class EmbeddedAppender implements ColumbaAppender {
    private final EmbeddedConnection connection;
    private final String table;
    private final List<Column> columns;
    private final String insert;
    private List<List<Object>> rows = new ArrayList<>();
    private Object[] row;
    private int column;
    private boolean closed;

    EmbeddedAppender(EmbeddedConnection connection, String table, List<Column> columns) {
        this.connection = connection;
        this.table = table;
        this.columns = List.copyOf(columns);
        StringJoiner names = new StringJoiner(", ", "INSERT INTO " + quoted(table) + " (", ")");
        StringJoiner markers = new StringJoiner(", ", " VALUES (", ")");
        for (Column each : columns) {
            names.add(quoted(each.name()));
            markers.add("?");
        }
        this.insert = names + markers.toString();
        this.row = new Object[columns.size()];
    }

    private static String quoted(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    private void checkOpen() throws SQLException {
        if (closed) {
            throw Errors.closed("appender");
        }
        connection.checkOpen();
    }

    @Override
    public List<String> columns() throws SQLException {
        checkOpen();
        return columns.stream().map(Column::name).toList();
    }

    /** Appends {@code value} to the next column, whose type must be one {@code accepts} lets through. */
    private ColumbaAppender append(Object value, String method, String kind, java.util.function.Predicate<SqlType> accepts)
            throws SQLException {
        checkOpen();
        if (column == columns.size()) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "the row already has values for all " + columns.size()
                    + " columns of " + table + "; end it with endRow()");
        }
        Column target = columns.get(column);
        if (value != null && !accepts.test(target.type())) {
            dropRow();
            throw Errors.of(ErrorCode.WRONG_TYPE, "column " + target.name() + " of " + table + " is "
                    + target.type().sqlName() + "; " + method + " gives it a " + kind + " value (" + value
                    + "); the unfinished row was dropped");
        }
        row[column++] = value;
        return this;
    }

    private void dropRow() {
        row = new Object[columns.size()];
        column = 0;
    }

    private static boolean numeric(SqlType type) {
        return type instanceof SqlType.IntegerType || type instanceof SqlType.BigintType
                || type instanceof SqlType.DoubleType || type instanceof SqlType.DecimalType;
    }

    @Override
    public ColumbaAppender appendNull() throws SQLException {
        return append(null, "appendNull", "NULL", type -> true);
    }

    @Override
    public ColumbaAppender appendBoolean(boolean value) throws SQLException {
        return append(value, "appendBoolean", "BOOLEAN", type -> type instanceof SqlType.BooleanType);
    }

    @Override
    public ColumbaAppender appendInt(int value) throws SQLException {
        return append(value, "appendInt", "INT", EmbeddedAppender::numeric);
    }

    @Override
    public ColumbaAppender appendLong(long value) throws SQLException {
        return append(value, "appendLong", "BIGINT", EmbeddedAppender::numeric);
    }

    @Override
    public ColumbaAppender appendDouble(double value) throws SQLException {
        return append(value, "appendDouble", "DOUBLE",
                type -> type instanceof SqlType.DoubleType || type instanceof SqlType.DecimalType);
    }

    @Override
    public ColumbaAppender appendDecimal(BigDecimal value) throws SQLException {
        return append(value, "appendDecimal", "DECIMAL", EmbeddedAppender::numeric);
    }

    @Override
    public ColumbaAppender appendString(String value) throws SQLException {
        return append(value, "appendString", "VARCHAR",
                type -> type instanceof SqlType.VarcharType || type instanceof SqlType.CharType);
    }

    @Override
    public ColumbaAppender appendDate(LocalDate value) throws SQLException {
        return append(value, "appendDate", "DATE", type -> type instanceof SqlType.DateType);
    }

    @Override
    public ColumbaAppender appendTimestamp(LocalDateTime value) throws SQLException {
        return append(value, "appendTimestamp", "TIMESTAMP", type -> type instanceof SqlType.TimestampType);
    }

    @Override
    public ColumbaAppender endRow() throws SQLException {
        checkOpen();
        if (column < columns.size()) {
            int given = column;
            dropRow();
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "the row has values for " + given + " of the " + columns.size()
                    + " columns of " + table + "; it was dropped");
        }
        rows.add(Arrays.asList(row));
        row = new Object[columns.size()];
        column = 0;
        if (rows.size() >= AUTO_FLUSH_ROWS) {
            flush();
        }
        return this;
    }

    @Override
    public ColumbaAppender appendRow(Object... values) throws SQLException {
        checkOpen();
        if (column != 0) {
            dropRow();
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "appendRow inside an unfinished row of " + table
                    + "; the unfinished row was dropped");
        }
        if (values.length != columns.size()) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "appendRow got " + values.length + " values for the "
                    + columns.size() + " columns of " + table);
        }
        for (Object value : values) {
            switch (value) {
                case null -> appendNull();
                case Boolean flag -> appendBoolean(flag);
                case Integer number -> appendInt(number);
                case Short number -> appendInt(number);
                case Byte number -> appendInt(number);
                case Long number -> appendLong(number);
                case Double number -> appendDouble(number);
                case Float number -> appendDouble(Double.parseDouble(number.toString()));
                case BigDecimal number -> appendDecimal(number);
                case String text -> appendString(text);
                case LocalDate date -> appendDate(date);
                case LocalDateTime timestamp -> appendTimestamp(timestamp);
                case java.sql.Date date -> appendDate(date.toLocalDate());
                case java.sql.Timestamp timestamp -> appendTimestamp(timestamp.toLocalDateTime());
                default -> {
                    dropRow();
                    throw Errors.of(ErrorCode.WRONG_TYPE, "appendRow cannot append a " + value.getClass().getName()
                            + " (" + value + ") to " + table + "; the row was dropped");
                }
            }
        }
        return endRow();
    }

    @Override
    public void flush() throws SQLException {
        checkOpen();
        if (column != 0) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "flush inside an unfinished row of " + table
                    + " (values for " + column + " of " + columns.size() + " columns); end it or give it all its values");
        }
        if (rows.isEmpty()) {
            return;
        }
        List<List<Object>> flushing = rows;
        rows = new ArrayList<>();
        // The rows are dropped whether or not the insert succeeds: a failed flush inserted none of them.
        try (EmbeddedStatement statement = new EmbeddedStatement(connection)) {
            statement.executeBatchStatement(insert, flushing);
        }
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        try {
            if (!connection.isClosed()) {
                flush();
            }
        } finally {
            closed = true;
            rows = List.of();
        }
    }
}

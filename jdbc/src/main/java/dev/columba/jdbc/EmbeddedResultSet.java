package dev.columba.jdbc;

import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.planner.session.StatementResult;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Calendar;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A forward-only, read-only result set over a {@link RowSource}: a query's batches, or rows on the
 * heap. Getters convert as {@link Conversions} says; {@code getObject} returns the JDBC classes of
 * {@link JdbcTypes#javaClass}, and {@code getObject(i, LocalDate.class)} /
 * {@code getObject(i, LocalDateTime.class)} the java.time values.
 *
 * <p>The query finishes (its locks and memory released, its messages and statistics complete) when
 * {@code next()} passes the last row or the max-rows limit, when the result set is closed, or when
 * the connection moves the unread rows to the heap ({@link #detach()}). Its messages then become
 * this result set's warnings and its statement's.
 *
 * <p>Every use goes through {@code lock} (the connection's, for a query), because a batch is only
 * valid until the session moves on.
 */
final class EmbeddedResultSet extends ReadOnlyResultSet {
    /** SQLSTATE of a getter called with no current row. */
    private static final String NO_CURRENT_ROW_STATE = "24000";
    /** SQLSTATE of a column label the result does not have. */
    private static final String UNDEFINED_COLUMN_STATE = "42703";

    private final EmbeddedStatement statement;
    private final Object lock;
    private final StatementRun run;
    private final TableSchema schema;
    /** The columns that are a table's IDENTITY column as stored ({@link EmbeddedResultSetMetaData#isAutoIncrement}). */
    private final java.util.BitSet identityColumns;
    /** The columns' labels as the query wrote them (may repeat: {@code SELECT a.id, b.id}). */
    private final java.util.List<String> columnLabels;
    private final long maxRows;
    private final int maxFieldSize;
    private RowSource source;
    private Map<String, Integer> columnsByLabel;
    /** The current row, from 1; 0 before the first and after the last. */
    private long rowNumber;
    private boolean ended;
    private boolean closed;
    /** Whether the query behind this result still runs (its rows are not all read, buffered or dropped). */
    private boolean queryRunning;
    /** isBeforeFirst looked ahead: the source is on the first row while the result set is not. */
    private boolean peeked;
    private boolean peekedHasRow;
    /** Whether next() ever returned a row (isAfterLast is false for a result without rows). */
    private boolean returnedRow;
    private boolean wasNull;
    private int fetchSize;
    private SQLWarning warnings;
    /** A failure of the query met while its rows were buffered, reported by the next {@code next()}. */
    private SQLException pendingFailure;

    EmbeddedResultSet(EmbeddedStatement statement, Object lock, RowSource source, StatementRun run, long maxRows,
                      int maxFieldSize) {
        this.statement = statement;
        this.lock = lock;
        this.source = source;
        this.run = run;
        this.schema = source.schema();
        this.identityColumns = source instanceof RowSource.Batches batches ? batches.rows().identityColumns()
                : new java.util.BitSet();
        this.columnLabels = source instanceof RowSource.Batches batches ? batches.rows().columnLabels()
                : EmbeddedResultSetMetaData.names(schema);
        this.maxRows = maxRows;
        this.maxFieldSize = maxFieldSize;
        this.queryRunning = source instanceof RowSource.Batches;
    }

    /** A result set of rows on the heap (metadata, generated keys), values in Columba's Java representation. */
    static EmbeddedResultSet ofRows(EmbeddedStatement statement, TableSchema schema, List<Object[]> rows) {
        return new EmbeddedResultSet(statement, new Object(), new RowSource.Heap(schema, rows, -1), null, 0, 0);
    }

    // ---- moving ---------------------------------------------------------------------------------

    @Override
    public boolean next() throws SQLException {
        synchronized (lock) {
            checkOpen();
            if (pendingFailure != null) {
                SQLException failure = pendingFailure;
                pendingFailure = null;
                throw failure;
            }
            if (peeked) {
                peeked = false;
                if (!peekedHasRow) {
                    return false;
                }
                rowNumber++;
                returnedRow = true;
                return true;
            }
            if (!advance()) {
                return false;
            }
            rowNumber++;
            returnedRow = true;
            return true;
        }
    }

    /** Moves the source to its next row within max rows; at the end, finishes the query. */
    private boolean advance() throws SQLException {
        if (ended) {
            return false;
        }
        if (maxRows > 0 && rowNumber >= maxRows) {
            end();
            return false;
        }
        boolean hasRow;
        try {
            hasRow = source.next();
        } catch (RuntimeException | Error e) {
            SQLException failure = Errors.translate(e);
            ended = true;
            rowNumber = 0;
            finishQuery(failure);
            throw run == null ? failure : run.failure(failure);
        }
        if (!hasRow) {
            end();
        }
        return hasRow;
    }

    private void end() throws SQLException {
        ended = true;
        rowNumber = 0;
        finishQuery(null);
    }

    /**
     * Ends the query behind this result: closes its rows, which completes its statistics, and hands
     * its messages on. With {@code failure} (the query failed), a failure to close is added to it;
     * otherwise it is thrown.
     */
    private void finishQuery(SQLException failure) throws SQLException {
        if (!queryRunning) {
            return;
        }
        queryRunning = false;
        RowSource.Batches batches = (RowSource.Batches) source;
        SQLException closing = null;
        try {
            batches.close();
        } catch (RuntimeException | Error e) {
            closing = Errors.translate(e);
        }
        queryFinished(batches.rows());
        if (closing != null) {
            if (failure == null) {
                throw closing;
            }
            failure.setNextException(closing);
        }
    }

    private void queryFinished(StatementResult.Rows rows) {
        warnings = EmbeddedStatement.warningsOf(rows.messages());
        if (run != null) {
            run.finish();
        }
        if (statement != null) {
            statement.finished(rows.messages(), rows::statistics);
            statement.connection.resultFinished(this);
        }
    }

    /**
     * Moves the rows not yet read to the heap (no more than max rows allows) and finishes the query,
     * so the connection can run something else; reading carries on where it was. A failure of the
     * query while buffering is reported by the next {@code next()}.
     */
    void detach() {
        synchronized (lock) {
            if (!queryRunning) {
                return;
            }
            RowSource.Batches batches = (RowSource.Batches) source;
            boolean onReturnedRow = rowNumber > 0 && !ended;
            long limit = maxRows > 0 ? maxRows - rowNumber + (onReturnedRow ? 1 : 0) : Long.MAX_VALUE;
            queryRunning = false;
            try {
                source = batches.buffer(limit);
            } catch (RuntimeException | Error e) {
                SQLException failure = Errors.translate(e);
                pendingFailure = run == null ? failure : run.failure(failure);
                try {
                    batches.close();
                } catch (RuntimeException | Error closing) {
                    pendingFailure.setNextException(Errors.translate(closing));
                }
                source = new RowSource.Heap(schema, List.of(), -1);
                ended = true;
                rowNumber = 0;
                peeked = false;
            }
            queryFinished(batches.rows());
        }
    }

    @Override
    public boolean isBeforeFirst() throws SQLException {
        synchronized (lock) {
            checkOpen();
            if (rowNumber > 0 || ended) {
                return false;
            }
            if (!peeked) {
                peekedHasRow = advance();
                peeked = true;
            }
            return peekedHasRow;
        }
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        synchronized (lock) {
            checkOpen();
            return ended && returnedRow;
        }
    }

    @Override
    public boolean isFirst() throws SQLException {
        synchronized (lock) {
            checkOpen();
            return rowNumber == 1;
        }
    }

    /** Knowing would mean reading past the current row, which may end its batch; optional for forward-only. */
    @Override
    public boolean isLast() throws SQLException {
        throw Errors.notSupported("isLast on a forward-only result set");
    }

    @Override
    public int getRow() throws SQLException {
        synchronized (lock) {
            checkOpen();
            return EmbeddedStatement.clampToInt(rowNumber);
        }
    }

    // ---- closing --------------------------------------------------------------------------------

    @Override
    public void close() throws SQLException {
        if (closeForStatement() && statement != null) {
            statement.resultSetClosed(this);
        }
    }

    /** Closes without telling the statement (which is closing it); true if this call closed it. */
    boolean closeForStatement() throws SQLException {
        synchronized (lock) {
            if (closed) {
                return false;
            }
            closed = true;
            peeked = false;
            try {
                finishQuery(null);
            } finally {
                source.close();
            }
            return true;
        }
    }

    @Override
    public boolean isClosed() {
        synchronized (lock) {
            return closed;
        }
    }

    private void checkOpen() throws SQLException {
        if (closed) {
            throw Errors.closed("result set");
        }
    }

    // ---- columns --------------------------------------------------------------------------------

    /** The 0-based column of a 1-based index, with a current row to read. */
    private int readable(int columnIndex) throws SQLException {
        checkOpen();
        if (columnIndex < 1 || columnIndex > schema.size()) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "column index " + columnIndex + " is out of range: the result has "
                    + schema.size() + " columns");
        }
        if (rowNumber == 0 || ended) {
            throw new SQLException(ended ? "no current row: the result set is past its last row"
                    : "no current row: call next() first", NO_CURRENT_ROW_STATE);
        }
        return columnIndex - 1;
    }

    private SqlType type(int column) {
        return schema.column(column).type();
    }

    /** The value in Columba's Java representation, or null; records wasNull. */
    private Object value(int column) {
        Object value = source.value(column);
        wasNull = value == null;
        return value;
    }

    private boolean isNull(int column) {
        wasNull = source.isNull(column);
        return wasNull;
    }

    @Override
    public int findColumn(String columnLabel) throws SQLException {
        synchronized (lock) {
            checkOpen();
            if (columnsByLabel == null) {
                // A label finds its first column; the schema's distinct names (id0) find theirs too.
                columnsByLabel = new HashMap<>();
                for (int column = schema.size() - 1; column >= 0; column--) {
                    columnsByLabel.put(schema.column(column).name().toLowerCase(Locale.ROOT), column + 1);
                }
                for (int column = schema.size() - 1; column >= 0; column--) {
                    columnsByLabel.put(columnLabels.get(column).toLowerCase(Locale.ROOT), column + 1);
                }
            }
            Integer index = columnLabel == null ? null : columnsByLabel.get(columnLabel.toLowerCase(Locale.ROOT));
            if (index == null) {
                throw new SQLException("the result has no column named " + columnLabel, UNDEFINED_COLUMN_STATE);
            }
            return index;
        }
    }

    @Override
    public boolean wasNull() throws SQLException {
        synchronized (lock) {
            checkOpen();
            return wasNull;
        }
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        return new EmbeddedResultSetMetaData(schema, identityColumns, columnLabels);
    }

    // ---- getters by index -----------------------------------------------------------------------

    @Override
    public String getString(int columnIndex) throws SQLException {
        synchronized (lock) {
            int column = readable(columnIndex);
            Object value = value(column);
            return value == null ? null : limited(Conversions.toText(value, type(column)), type(column));
        }
    }

    /** Character values cut to the statement's max field size. */
    private String limited(String text, SqlType type) {
        if (maxFieldSize > 0 && JdbcTypes.isCharacter(type) && text.length() > maxFieldSize) {
            return text.substring(0, text.offsetByCodePoints(0, Math.min(maxFieldSize, text.codePointCount(0, text.length()))));
        }
        return text;
    }

    @Override
    public boolean getBoolean(int columnIndex) throws SQLException {
        synchronized (lock) {
            int column = readable(columnIndex);
            Object value = value(column);
            return value != null && Conversions.toBoolean(value, type(column));
        }
    }

    @Override
    public byte getByte(int columnIndex) throws SQLException {
        synchronized (lock) {
            int column = readable(columnIndex);
            Object value = value(column);
            return value == null ? 0 : (byte) Conversions.toNarrowInteger(value, type(column), Byte.MIN_VALUE,
                    Byte.MAX_VALUE, "TINYINT");
        }
    }

    @Override
    public short getShort(int columnIndex) throws SQLException {
        synchronized (lock) {
            int column = readable(columnIndex);
            Object value = value(column);
            return value == null ? 0 : (short) Conversions.toNarrowInteger(value, type(column), Short.MIN_VALUE,
                    Short.MAX_VALUE, "SMALLINT");
        }
    }

    @Override
    public int getInt(int columnIndex) throws SQLException {
        synchronized (lock) {
            int column = readable(columnIndex);
            if (type(column) instanceof SqlType.IntegerType) {
                return isNull(column) ? 0 : (int) source.longValue(column);
            }
            Object value = value(column);
            return value == null ? 0 : Conversions.toInt(value, type(column));
        }
    }

    @Override
    public long getLong(int columnIndex) throws SQLException {
        synchronized (lock) {
            int column = readable(columnIndex);
            if (type(column) instanceof SqlType.IntegerType || type(column) instanceof SqlType.BigintType) {
                return isNull(column) ? 0 : source.longValue(column);
            }
            Object value = value(column);
            return value == null ? 0 : Conversions.toLong(value, type(column));
        }
    }

    @Override
    public float getFloat(int columnIndex) throws SQLException {
        synchronized (lock) {
            int column = readable(columnIndex);
            Object value = value(column);
            return value == null ? 0 : Conversions.toFloat(value, type(column));
        }
    }

    @Override
    public double getDouble(int columnIndex) throws SQLException {
        synchronized (lock) {
            int column = readable(columnIndex);
            if (type(column) instanceof SqlType.DoubleType) {
                return isNull(column) ? 0 : source.doubleValue(column);
            }
            Object value = value(column);
            return value == null ? 0 : Conversions.toDouble(value, type(column));
        }
    }

    @Override
    public BigDecimal getBigDecimal(int columnIndex) throws SQLException {
        synchronized (lock) {
            int column = readable(columnIndex);
            Object value = value(column);
            return value == null ? null : Conversions.toBigDecimal(value, type(column));
        }
    }

    /** @deprecated as in {@link ResultSet}; rounds half up to {@code scale}. */
    @Override
    @Deprecated
    public BigDecimal getBigDecimal(int columnIndex, int scale) throws SQLException {
        BigDecimal value = getBigDecimal(columnIndex);
        return value == null ? null : value.setScale(scale, RoundingMode.HALF_UP);
    }

    @Override
    public byte[] getBytes(int columnIndex) throws SQLException {
        synchronized (lock) {
            int column = readable(columnIndex);
            Object value = value(column);
            return value == null ? null : Conversions.toBytes(value, type(column));
        }
    }

    private LocalDate localDate(int columnIndex) throws SQLException {
        int column = readable(columnIndex);
        Object value = value(column);
        return value == null ? null : Conversions.toLocalDate(value, type(column));
    }

    private LocalDateTime localDateTime(int columnIndex) throws SQLException {
        int column = readable(columnIndex);
        Object value = value(column);
        return value == null ? null : Conversions.toLocalDateTime(value, type(column));
    }

    @Override
    public Date getDate(int columnIndex) throws SQLException {
        synchronized (lock) {
            LocalDate date = localDate(columnIndex);
            return date == null ? null : Date.valueOf(date);
        }
    }

    /** The date's midnight in the calendar's time zone. */
    @Override
    public Date getDate(int columnIndex, Calendar calendar) throws SQLException {
        if (calendar == null) {
            return getDate(columnIndex);
        }
        synchronized (lock) {
            LocalDate date = localDate(columnIndex);
            return date == null ? null
                    : new Date(date.atStartOfDay(calendar.getTimeZone().toZoneId()).toInstant().toEpochMilli());
        }
    }

    /** The time of day of a TIMESTAMP (Columba has no TIME type), to the second as java.sql.Time holds it. */
    @Override
    public Time getTime(int columnIndex) throws SQLException {
        synchronized (lock) {
            LocalDateTime timestamp = localDateTime(columnIndex);
            return timestamp == null ? null : Time.valueOf(timestamp.toLocalTime());
        }
    }

    @Override
    public Time getTime(int columnIndex, Calendar calendar) throws SQLException {
        if (calendar == null) {
            return getTime(columnIndex);
        }
        synchronized (lock) {
            LocalDateTime timestamp = localDateTime(columnIndex);
            return timestamp == null ? null : new Time(LocalDate.EPOCH.atTime(timestamp.toLocalTime())
                    .atZone(calendar.getTimeZone().toZoneId()).toInstant().toEpochMilli());
        }
    }

    @Override
    public Timestamp getTimestamp(int columnIndex) throws SQLException {
        synchronized (lock) {
            LocalDateTime timestamp = localDateTime(columnIndex);
            return timestamp == null ? null : Timestamp.valueOf(timestamp);
        }
    }

    /** The timestamp read as a wall-clock time in the calendar's time zone. */
    @Override
    public Timestamp getTimestamp(int columnIndex, Calendar calendar) throws SQLException {
        if (calendar == null) {
            return getTimestamp(columnIndex);
        }
        synchronized (lock) {
            LocalDateTime timestamp = localDateTime(columnIndex);
            return timestamp == null ? null
                    : Timestamp.from(timestamp.atZone(calendar.getTimeZone().toZoneId()).toInstant());
        }
    }

    @Override
    public Object getObject(int columnIndex) throws SQLException {
        synchronized (lock) {
            int column = readable(columnIndex);
            Object value = value(column);
            return switch (value) {
                case null -> null;
                case LocalDate date -> Date.valueOf(date);
                case LocalDateTime timestamp -> Timestamp.valueOf(timestamp);
                case String text -> limited(text, type(column));
                default -> value;
            };
        }
    }

    /** Text read as a UUID (a VARCHAR or CHAR(36) column may hold UUIDs as their text). */
    private static java.util.UUID uuid(int columnIndex, String text) throws SQLException {
        try {
            // fromString accepts shortened groups ("1-1-1-1-1"); only the canonical 36 characters are a UUID's text.
            java.util.UUID uuid = java.util.UUID.fromString(text);
            if (text.length() == 36) {
                return uuid;
            }
        } catch (IllegalArgumentException e) {
            // Reported below, as any text that does not convert.
        }
        throw Errors.of(ErrorCode.INVALID_CAST, "column " + columnIndex + " holds '" + text
                + "', which is not a UUID");
    }

    @Override
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        if (type == null) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "getObject needs a class");
        }
        synchronized (lock) {
            int column = readable(columnIndex);
            if (source.isNull(column)) {
                wasNull = true;
                if (type.isPrimitive()) {
                    throw Errors.of(ErrorCode.INVALID_ARGUMENT, "getObject cannot return NULL as a " + type.getName());
                }
                return null;
            }
            Object converted;
            if (type == Object.class) {
                converted = getObject(columnIndex);
            } else if (type == String.class) {
                converted = getString(columnIndex);
            } else if (type == Integer.class) {
                converted = getInt(columnIndex);
            } else if (type == Long.class) {
                converted = getLong(columnIndex);
            } else if (type == Double.class) {
                converted = getDouble(columnIndex);
            } else if (type == Float.class) {
                converted = getFloat(columnIndex);
            } else if (type == Short.class) {
                converted = getShort(columnIndex);
            } else if (type == Byte.class) {
                converted = getByte(columnIndex);
            } else if (type == Boolean.class) {
                converted = getBoolean(columnIndex);
            } else if (type == BigDecimal.class) {
                converted = getBigDecimal(columnIndex);
            } else if (type == BigInteger.class) {
                converted = getBigDecimal(columnIndex).setScale(0, RoundingMode.HALF_UP).toBigIntegerExact();
            } else if (type == LocalDate.class) {
                converted = localDate(columnIndex);
            } else if (type == LocalDateTime.class) {
                converted = localDateTime(columnIndex);
            } else if (type == LocalTime.class) {
                converted = localDateTime(columnIndex).toLocalTime();
            } else if (type == java.time.Instant.class) {
                // In the JVM's default zone, as getTimestamp and the setters of Instant read a TIMESTAMP.
                converted = localDateTime(columnIndex).atZone(java.time.ZoneId.systemDefault()).toInstant();
            } else if (type == java.time.OffsetDateTime.class) {
                converted = localDateTime(columnIndex).atZone(java.time.ZoneId.systemDefault()).toOffsetDateTime();
            } else if (type == java.util.UUID.class) {
                Object value = value(column);
                converted = value instanceof String text ? uuid(columnIndex, text) : Conversions.toUuid(value, type(column));
            } else if (type == byte[].class) {
                converted = getBytes(columnIndex);
            } else if (type == Date.class) {
                converted = getDate(columnIndex);
            } else if (type == Timestamp.class || type == java.util.Date.class) {
                converted = getTimestamp(columnIndex);
            } else if (type == Time.class) {
                converted = getTime(columnIndex);
            } else {
                throw Errors.of(ErrorCode.WRONG_TYPE, "column " + columnIndex + " (" + schema.column(column).name() + ", "
                        + type(column).sqlName() + ") cannot be read as " + type.getName());
            }
            return type.cast(converted);
        }
    }

    @Override
    public Object getObject(int columnIndex, Map<String, Class<?>> map) throws SQLException {
        if (map != null && !map.isEmpty()) {
            throw Errors.notSupported("type maps (Columba has no user-defined types)");
        }
        return getObject(columnIndex);
    }

    @Override
    public Reader getCharacterStream(int columnIndex) throws SQLException {
        String text = getString(columnIndex);
        return text == null ? null : new StringReader(text);
    }

    @Override
    public Reader getNCharacterStream(int columnIndex) throws SQLException {
        return getCharacterStream(columnIndex);
    }

    @Override
    public String getNString(int columnIndex) throws SQLException {
        return getString(columnIndex);
    }

    @Override
    public InputStream getAsciiStream(int columnIndex) throws SQLException {
        String text = getString(columnIndex);
        return text == null ? null : new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII));
    }

    /** @deprecated as in {@link ResultSet}. */
    @Override
    @Deprecated
    public InputStream getUnicodeStream(int columnIndex) throws SQLException {
        throw Errors.notSupported("getUnicodeStream (deprecated since JDBC 2.0)");
    }

    @Override
    public InputStream getBinaryStream(int columnIndex) throws SQLException {
        byte[] bytes = getBytes(columnIndex);
        return bytes == null ? null : new ByteArrayInputStream(bytes);
    }

    @Override
    public Ref getRef(int columnIndex) throws SQLException {
        throw Errors.notSupported("REF values");
    }

    @Override
    public Blob getBlob(int columnIndex) throws SQLException {
        throw Errors.notSupported("BLOB values");
    }

    @Override
    public Clob getClob(int columnIndex) throws SQLException {
        throw Errors.notSupported("CLOB values (read text with getString)");
    }

    @Override
    public NClob getNClob(int columnIndex) throws SQLException {
        throw Errors.notSupported("NCLOB values (read text with getString)");
    }

    @Override
    public Array getArray(int columnIndex) throws SQLException {
        throw Errors.notSupported("ARRAY values");
    }

    @Override
    public URL getURL(int columnIndex) throws SQLException {
        throw Errors.notSupported("DATALINK values");
    }

    @Override
    public RowId getRowId(int columnIndex) throws SQLException {
        throw Errors.notSupported("ROWID values");
    }

    @Override
    public SQLXML getSQLXML(int columnIndex) throws SQLException {
        throw Errors.notSupported("XML values");
    }

    // ---- getters by label -----------------------------------------------------------------------

    @Override
    public String getString(String columnLabel) throws SQLException {
        return getString(findColumn(columnLabel));
    }

    @Override
    public boolean getBoolean(String columnLabel) throws SQLException {
        return getBoolean(findColumn(columnLabel));
    }

    @Override
    public byte getByte(String columnLabel) throws SQLException {
        return getByte(findColumn(columnLabel));
    }

    @Override
    public short getShort(String columnLabel) throws SQLException {
        return getShort(findColumn(columnLabel));
    }

    @Override
    public int getInt(String columnLabel) throws SQLException {
        return getInt(findColumn(columnLabel));
    }

    @Override
    public long getLong(String columnLabel) throws SQLException {
        return getLong(findColumn(columnLabel));
    }

    @Override
    public float getFloat(String columnLabel) throws SQLException {
        return getFloat(findColumn(columnLabel));
    }

    @Override
    public double getDouble(String columnLabel) throws SQLException {
        return getDouble(findColumn(columnLabel));
    }

    @Override
    public BigDecimal getBigDecimal(String columnLabel) throws SQLException {
        return getBigDecimal(findColumn(columnLabel));
    }

    /** @deprecated as in {@link ResultSet}. */
    @Override
    @Deprecated
    public BigDecimal getBigDecimal(String columnLabel, int scale) throws SQLException {
        return getBigDecimal(findColumn(columnLabel), scale);
    }

    @Override
    public byte[] getBytes(String columnLabel) throws SQLException {
        return getBytes(findColumn(columnLabel));
    }

    @Override
    public Date getDate(String columnLabel) throws SQLException {
        return getDate(findColumn(columnLabel));
    }

    @Override
    public Date getDate(String columnLabel, Calendar calendar) throws SQLException {
        return getDate(findColumn(columnLabel), calendar);
    }

    @Override
    public Time getTime(String columnLabel) throws SQLException {
        return getTime(findColumn(columnLabel));
    }

    @Override
    public Time getTime(String columnLabel, Calendar calendar) throws SQLException {
        return getTime(findColumn(columnLabel), calendar);
    }

    @Override
    public Timestamp getTimestamp(String columnLabel) throws SQLException {
        return getTimestamp(findColumn(columnLabel));
    }

    @Override
    public Timestamp getTimestamp(String columnLabel, Calendar calendar) throws SQLException {
        return getTimestamp(findColumn(columnLabel), calendar);
    }

    @Override
    public Object getObject(String columnLabel) throws SQLException {
        return getObject(findColumn(columnLabel));
    }

    @Override
    public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
        return getObject(findColumn(columnLabel), type);
    }

    @Override
    public Object getObject(String columnLabel, Map<String, Class<?>> map) throws SQLException {
        return getObject(findColumn(columnLabel), map);
    }

    @Override
    public Reader getCharacterStream(String columnLabel) throws SQLException {
        return getCharacterStream(findColumn(columnLabel));
    }

    @Override
    public Reader getNCharacterStream(String columnLabel) throws SQLException {
        return getNCharacterStream(findColumn(columnLabel));
    }

    @Override
    public String getNString(String columnLabel) throws SQLException {
        return getNString(findColumn(columnLabel));
    }

    @Override
    public InputStream getAsciiStream(String columnLabel) throws SQLException {
        return getAsciiStream(findColumn(columnLabel));
    }

    /** @deprecated as in {@link ResultSet}. */
    @Override
    @Deprecated
    public InputStream getUnicodeStream(String columnLabel) throws SQLException {
        return getUnicodeStream(findColumn(columnLabel));
    }

    @Override
    public InputStream getBinaryStream(String columnLabel) throws SQLException {
        return getBinaryStream(findColumn(columnLabel));
    }

    @Override
    public Ref getRef(String columnLabel) throws SQLException {
        return getRef(findColumn(columnLabel));
    }

    @Override
    public Blob getBlob(String columnLabel) throws SQLException {
        return getBlob(findColumn(columnLabel));
    }

    @Override
    public Clob getClob(String columnLabel) throws SQLException {
        return getClob(findColumn(columnLabel));
    }

    @Override
    public NClob getNClob(String columnLabel) throws SQLException {
        return getNClob(findColumn(columnLabel));
    }

    @Override
    public Array getArray(String columnLabel) throws SQLException {
        return getArray(findColumn(columnLabel));
    }

    @Override
    public URL getURL(String columnLabel) throws SQLException {
        return getURL(findColumn(columnLabel));
    }

    @Override
    public RowId getRowId(String columnLabel) throws SQLException {
        return getRowId(findColumn(columnLabel));
    }

    @Override
    public SQLXML getSQLXML(String columnLabel) throws SQLException {
        return getSQLXML(findColumn(columnLabel));
    }

    // ---- the rest of JDBC -----------------------------------------------------------------------

    @Override
    public SQLWarning getWarnings() throws SQLException {
        synchronized (lock) {
            checkOpen();
            return warnings;
        }
    }

    @Override
    public void clearWarnings() throws SQLException {
        synchronized (lock) {
            checkOpen();
            warnings = null;
        }
    }

    @Override
    public String getCursorName() throws SQLException {
        throw Errors.notSupported("named cursors (positioned UPDATE and DELETE)");
    }

    @Override
    public Statement getStatement() throws SQLException {
        checkOpen();
        return statement;
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != FETCH_FORWARD) {
            throw Errors.notSupported("fetch direction " + direction + " (Columba's result sets are forward-only)");
        }
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return FETCH_FORWARD;
    }

    /** A hint Columba does not need: rows arrive a batch at a time. */
    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "fetch size must be 0 or more, got " + rows);
        }
        fetchSize = rows;
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public int getType() throws SQLException {
        checkOpen();
        return TYPE_FORWARD_ONLY;
    }

    @Override
    public int getConcurrency() throws SQLException {
        checkOpen();
        return CONCUR_READ_ONLY;
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        throw Errors.of(ErrorCode.INVALID_ARGUMENT, "a Columba result set does not wrap a " + type.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return type.isInstance(this);
    }
}

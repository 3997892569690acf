package dev.columba.jdbc;

import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import dev.columba.planner.session.Session;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;
import java.util.Optional;

/**
 * A statement with {@code ?} parameters. Values are bound in Columba's Java representation of the
 * setter's natural type (see {@link Conversions#parameter(Object)}); the session plans the statement
 * and converts them to the parameters' types when it runs. The parameter count comes from the
 * markers in the text ({@link ParameterMarkers}), so a bad index fails at the setter.
 */
final class EmbeddedPreparedStatement extends EmbeddedStatement implements PreparedStatement {
    private final String sql;
    private final Object[] values;
    private final boolean[] bound;
    private final List<Object[]> batches = new ArrayList<>();

    EmbeddedPreparedStatement(EmbeddedConnection connection, String sql) throws SQLException {
        super(connection);
        if (sql == null) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "the SQL to prepare is null");
        }
        this.sql = sql;
        int count = ParameterMarkers.count(sql);
        this.values = new Object[count];
        this.bound = new boolean[count];
    }

    /** The values bound now, checked complete. */
    private List<Object> parameters() throws SQLException {
        return Arrays.asList(boundValues());
    }

    /** A copy of the values bound now, checked complete. */
    private Object[] boundValues() throws SQLException {
        for (int index = 0; index < bound.length; index++) {
            if (!bound[index]) {
                throw Errors.of(ErrorCode.INVALID_ARGUMENT, "no value is bound to parameter " + (index + 1) + " of "
                        + bound.length);
            }
        }
        return values.clone();
    }

    private void bind(int parameterIndex, Object value) throws SQLException {
        checkOpen();
        if (parameterIndex < 1 || parameterIndex > values.length) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "parameter index " + parameterIndex + " is out of range: the"
                    + " statement has " + values.length + " parameters");
        }
        values[parameterIndex - 1] = value;
        bound[parameterIndex - 1] = true;
    }

    // ---- executing ------------------------------------------------------------------------------

    @Override
    public boolean execute() throws SQLException {
        return executeStatement(sql, parameters());
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        return query(executeStatement(sql, parameters()));
    }

    @Override
    public int executeUpdate() throws SQLException {
        return clampToInt(update(executeStatement(sql, parameters())));
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        return update(executeStatement(sql, parameters()));
    }

    @Override
    public void addBatch() throws SQLException {
        checkOpen();
        batches.add(boundValues());
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        batches.clear();
    }

    /**
     * Executes the statement for every parameter set as one statement of the session
     * ({@link dev.columba.planner.session.Session#executeBatch}): planned once, an INSERT of one row
     * of values inserting the rows of all sets in one pass, and in autocommit mode one transaction
     * committed once at its end (JDBC leaves it to the driver when a batch commits): a thousand
     * inserts cost one log flush, not a thousand. A failing set fails the whole batch as a failed
     * statement fails: no set's change remains (inside an explicit transaction, the transaction is
     * rolled back, as after any failed statement), so the {@link java.sql.BatchUpdateException}
     * reports {@code EXECUTE_FAILED} for every set, consistent with what a query sees afterwards (as
     * pgJDBC reports a batch PostgreSQL rolled back); its message names the failing parameter set,
     * its SQLSTATE is the failure's.
     */
    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        List<List<Object>> sets = new ArrayList<>(batches.size());
        for (Object[] set : batches) {
            sets.add(Arrays.asList(set));
        }
        batches.clear();
        if (sets.isEmpty()) {
            return new long[0];
        }
        try {
            return executeBatchStatement(sql, sets);
        } catch (SQLException e) {
            long[] failed = new long[sets.size()];
            Arrays.fill(failed, java.sql.Statement.EXECUTE_FAILED);
            throw batchFailure(failed, e);
        }
    }

    @Override
    public void clearParameters() throws SQLException {
        checkOpen();
        Arrays.fill(values, null);
        Arrays.fill(bound, false);
    }

    /**
     * The result's columns, from the statement planned now as it will run (the plan is cached for
     * that run); null for a statement that returns an update count or is not planned (DDL,
     * commands), as JDBC allows.
     */
    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        Optional<Session.Description> description = connection.describe(sql);
        return description.isEmpty() || description.get().columns() == null ? null
                : new EmbeddedResultSetMetaData(description.get().columns(), description.get().identityColumns(),
                        description.get().columnLabels());
    }

    /**
     * The parameters' types as the planner inferred them from where each marker stands; for a
     * statement that is not planned, only their count (types unknown).
     */
    @Override
    public ParameterMetaData getParameterMetaData() throws SQLException {
        checkOpen();
        Optional<Session.Description> description = connection.describe(sql);
        return new MarkerParameterMetaData(values.length,
                description.isPresent() && description.get().parameterTypes().size() == values.length
                        ? description.get().parameterTypes() : null);
    }

    private static SQLException withSql() {
        return Errors.of(ErrorCode.INVALID_ARGUMENT, "a PreparedStatement runs the SQL it was prepared with;"
                + " use a Statement for other SQL");
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        throw withSql();
    }

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        throw withSql();
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        throw withSql();
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        throw withSql();
    }

    @Override
    public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
        throw withSql();
    }

    @Override
    public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        throw withSql();
    }

    @Override
    public long executeLargeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        throw withSql();
    }

    @Override
    public void addBatch(String sql) throws SQLException {
        throw withSql();
    }

    // ---- setters --------------------------------------------------------------------------------

    @Override
    public void setNull(int parameterIndex, int sqlType) throws SQLException {
        bind(parameterIndex, null);
    }

    @Override
    public void setNull(int parameterIndex, int sqlType, String typeName) throws SQLException {
        bind(parameterIndex, null);
    }

    @Override
    public void setBoolean(int parameterIndex, boolean value) throws SQLException {
        bind(parameterIndex, value);
    }

    @Override
    public void setByte(int parameterIndex, byte value) throws SQLException {
        bind(parameterIndex, (int) value);
    }

    @Override
    public void setShort(int parameterIndex, short value) throws SQLException {
        bind(parameterIndex, (int) value);
    }

    @Override
    public void setInt(int parameterIndex, int value) throws SQLException {
        bind(parameterIndex, value);
    }

    @Override
    public void setLong(int parameterIndex, long value) throws SQLException {
        bind(parameterIndex, value);
    }

    @Override
    public void setFloat(int parameterIndex, float value) throws SQLException {
        bind(parameterIndex, Conversions.parameter(value));
    }

    @Override
    public void setDouble(int parameterIndex, double value) throws SQLException {
        bind(parameterIndex, value);
    }

    @Override
    public void setBigDecimal(int parameterIndex, BigDecimal value) throws SQLException {
        bind(parameterIndex, value);
    }

    @Override
    public void setString(int parameterIndex, String value) throws SQLException {
        bind(parameterIndex, value);
    }

    @Override
    public void setNString(int parameterIndex, String value) throws SQLException {
        bind(parameterIndex, value);
    }

    @Override
    public void setDate(int parameterIndex, Date value) throws SQLException {
        bind(parameterIndex, value == null ? null : value.toLocalDate());
    }

    /** The calendar date the instant falls on in the calendar's time zone. */
    @Override
    public void setDate(int parameterIndex, Date value, Calendar calendar) throws SQLException {
        if (value == null || calendar == null) {
            setDate(parameterIndex, value);
            return;
        }
        bind(parameterIndex, LocalDate.ofInstant(Instant.ofEpochMilli(value.getTime()), calendar.getTimeZone().toZoneId()));
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp value) throws SQLException {
        bind(parameterIndex, value == null ? null : value.toLocalDateTime());
    }

    /** The wall-clock time of the instant in the calendar's time zone. */
    @Override
    public void setTimestamp(int parameterIndex, Timestamp value, Calendar calendar) throws SQLException {
        if (value == null || calendar == null) {
            setTimestamp(parameterIndex, value);
            return;
        }
        bind(parameterIndex, LocalDateTime.ofInstant(value.toInstant(), calendar.getTimeZone().toZoneId()));
    }

    @Override
    public void setTime(int parameterIndex, Time value) throws SQLException {
        throw Errors.notSupported("TIME parameters (Columba has no TIME type; bind a Timestamp)");
    }

    @Override
    public void setTime(int parameterIndex, Time value, Calendar calendar) throws SQLException {
        throw Errors.notSupported("TIME parameters (Columba has no TIME type; bind a Timestamp)");
    }

    @Override
    public void setObject(int parameterIndex, Object value) throws SQLException {
        bind(parameterIndex, Conversions.parameter(value));
    }

    @Override
    public void setObject(int parameterIndex, Object value, int targetSqlType) throws SQLException {
        bind(parameterIndex, Conversions.parameter(value, targetSqlType, -1));
    }

    @Override
    public void setObject(int parameterIndex, Object value, int targetSqlType, int scaleOrLength) throws SQLException {
        bind(parameterIndex, Conversions.parameter(value, targetSqlType, scaleOrLength));
    }

    @Override
    public void setObject(int parameterIndex, Object value, SQLType targetSqlType) throws SQLException {
        setObject(parameterIndex, value, vendorTypeNumber(targetSqlType));
    }

    @Override
    public void setObject(int parameterIndex, Object value, SQLType targetSqlType, int scaleOrLength) throws SQLException {
        setObject(parameterIndex, value, vendorTypeNumber(targetSqlType), scaleOrLength);
    }

    private static int vendorTypeNumber(SQLType type) throws SQLException {
        if (type == null || type.getVendorTypeNumber() == null) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "the target SQL type has no java.sql.Types code: " + type);
        }
        return type.getVendorTypeNumber();
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, int length) throws SQLException {
        bind(parameterIndex, read(reader, length));
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, long length) throws SQLException {
        bind(parameterIndex, read(reader, length));
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader) throws SQLException {
        bind(parameterIndex, read(reader, -1));
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader reader, long length) throws SQLException {
        bind(parameterIndex, read(reader, length));
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader reader) throws SQLException {
        bind(parameterIndex, read(reader, -1));
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream stream, int length) throws SQLException {
        bind(parameterIndex, read(ascii(stream), length));
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream stream, long length) throws SQLException {
        bind(parameterIndex, read(ascii(stream), length));
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream stream) throws SQLException {
        bind(parameterIndex, read(ascii(stream), -1));
    }

    @Override
    public void setClob(int parameterIndex, Clob value) throws SQLException {
        bind(parameterIndex, value == null ? null : value.getSubString(1, Math.toIntExact(value.length())));
    }

    @Override
    public void setClob(int parameterIndex, Reader reader, long length) throws SQLException {
        bind(parameterIndex, read(reader, length));
    }

    @Override
    public void setClob(int parameterIndex, Reader reader) throws SQLException {
        bind(parameterIndex, read(reader, -1));
    }

    @Override
    public void setNClob(int parameterIndex, NClob value) throws SQLException {
        setClob(parameterIndex, value);
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader, long length) throws SQLException {
        bind(parameterIndex, read(reader, length));
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader) throws SQLException {
        bind(parameterIndex, read(reader, -1));
    }

    private static Reader ascii(InputStream stream) {
        return stream == null ? null : new InputStreamReader(stream, StandardCharsets.US_ASCII);
    }

    /** The text of a reader, at most {@code length} characters (all when negative); null for a null reader. */
    private static String read(Reader reader, long length) throws SQLException {
        if (reader == null) {
            return null;
        }
        StringBuilder text = new StringBuilder();
        char[] buffer = new char[8192];
        try {
            while (length < 0 || text.length() < length) {
                int wanted = length < 0 ? buffer.length : (int) Math.min(buffer.length, length - text.length());
                int read = reader.read(buffer, 0, wanted);
                if (read < 0) {
                    break;
                }
                text.append(buffer, 0, read);
            }
        } catch (IOException e) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "cannot read the parameter's text: " + e);
        }
        return text.toString();
    }

    @Override
    public void setBytes(int parameterIndex, byte[] value) throws SQLException {
        bind(parameterIndex, Conversions.parameter(value));
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream stream, int length) throws SQLException {
        setBinaryStream(parameterIndex, stream, (long) length);
    }

    /** The first {@code length} bytes of the stream, read now; fewer in the stream are an error. */
    @Override
    public void setBinaryStream(int parameterIndex, InputStream stream, long length) throws SQLException {
        if (stream == null) {
            bind(parameterIndex, null);
            return;
        }
        if (length < 0 || length > SqlType.VarbinaryType.MAX_LENGTH) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "a binary stream's length must be 0.."
                    + SqlType.VarbinaryType.MAX_LENGTH + ", was " + length);
        }
        try {
            byte[] bytes = stream.readNBytes((int) length);
            if (bytes.length < length) {
                throw Errors.of(ErrorCode.INVALID_ARGUMENT, "the binary stream ended after " + bytes.length + " of "
                        + length + " bytes");
            }
            bind(parameterIndex, bytes);
        } catch (IOException e) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "cannot read the parameter's bytes: " + e);
        }
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream stream) throws SQLException {
        if (stream == null) {
            bind(parameterIndex, null);
            return;
        }
        try {
            bind(parameterIndex, stream.readAllBytes());
        } catch (IOException e) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "cannot read the parameter's bytes: " + e);
        }
    }

    /** @deprecated as in {@link PreparedStatement}. */
    @Override
    @Deprecated
    public void setUnicodeStream(int parameterIndex, InputStream stream, int length) throws SQLException {
        throw Errors.notSupported("setUnicodeStream (deprecated since JDBC 2.0; use setCharacterStream)");
    }

    @Override
    public void setBlob(int parameterIndex, Blob value) throws SQLException {
        throw Errors.notSupported("BLOB parameters (Columba has no binary types)");
    }

    @Override
    public void setBlob(int parameterIndex, InputStream stream, long length) throws SQLException {
        throw Errors.notSupported("BLOB parameters (Columba has no binary types)");
    }

    @Override
    public void setBlob(int parameterIndex, InputStream stream) throws SQLException {
        throw Errors.notSupported("BLOB parameters (Columba has no binary types)");
    }

    @Override
    public void setRef(int parameterIndex, Ref value) throws SQLException {
        throw Errors.notSupported("REF parameters");
    }

    @Override
    public void setArray(int parameterIndex, Array value) throws SQLException {
        throw Errors.notSupported("ARRAY parameters");
    }

    @Override
    public void setURL(int parameterIndex, URL value) throws SQLException {
        throw Errors.notSupported("DATALINK parameters");
    }

    @Override
    public void setRowId(int parameterIndex, RowId value) throws SQLException {
        throw Errors.notSupported("ROWID parameters");
    }

    @Override
    public void setSQLXML(int parameterIndex, SQLXML value) throws SQLException {
        throw Errors.notSupported("XML parameters");
    }

    /**
     * The parameters: their count, and their types when the planner inferred them ({@code types}
     * non-null); a statement that is not planned reports them as unknown ({@code OTHER}).
     */
    private record MarkerParameterMetaData(int count, List<SqlType> types) implements ParameterMetaData {
        private SqlType type(int parameterIndex) throws SQLException {
            if (parameterIndex < 1 || parameterIndex > count) {
                throw Errors.of(ErrorCode.INVALID_ARGUMENT, "parameter index " + parameterIndex + " is out of range: the"
                        + " statement has " + count + " parameters");
            }
            return types == null ? null : types.get(parameterIndex - 1);
        }

        @Override
        public int getParameterCount() {
            return count;
        }

        @Override
        public int isNullable(int param) throws SQLException {
            type(param);
            return parameterNullableUnknown;
        }

        @Override
        public boolean isSigned(int param) throws SQLException {
            SqlType type = type(param);
            return type != null && JdbcTypes.isNumeric(type);
        }

        @Override
        public int getPrecision(int param) throws SQLException {
            SqlType type = type(param);
            return type == null ? 0 : JdbcTypes.precision(type);
        }

        @Override
        public int getScale(int param) throws SQLException {
            SqlType type = type(param);
            return type == null ? 0 : JdbcTypes.scale(type);
        }

        @Override
        public int getParameterType(int param) throws SQLException {
            SqlType type = type(param);
            return type == null ? java.sql.Types.OTHER : JdbcTypes.jdbcType(type);
        }

        @Override
        public String getParameterTypeName(int param) throws SQLException {
            SqlType type = type(param);
            return type == null ? "UNKNOWN" : JdbcTypes.typeName(type);
        }

        @Override
        public String getParameterClassName(int param) throws SQLException {
            SqlType type = type(param);
            return type == null ? Object.class.getName() : JdbcTypes.javaClass(type).getName();
        }

        @Override
        public int getParameterMode(int param) throws SQLException {
            type(param);
            return parameterModeIn;
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            if (type.isInstance(this)) {
                return type.cast(this);
            }
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "Columba's parameter metadata does not wrap a " + type.getName());
        }

        @Override
        public boolean isWrapperFor(Class<?> type) {
            return type.isInstance(this);
        }
    }
}

package dev.columba.jdbc;

import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;

/**
 * The columns of a result: names, types as {@link java.sql.Types}, precision and scale,
 * nullability and the classes {@code getObject} returns (see {@link JdbcTypes}), and whether a
 * column is a table's IDENTITY column as stored. The planner traces that last fact from the plan's
 * column origins; it does not pass the origin table's name to the result, so table, schema and
 * catalog names are empty.
 */
final class EmbeddedResultSetMetaData implements ResultSetMetaData {
    private final TableSchema schema;
    private final java.util.BitSet identityColumns;
    private final java.util.List<String> labels;

    /**
     * @param identityColumns the columns that are an IDENTITY column as stored (not copied: the caller's own)
     * @param labels the columns' labels as the query wrote them, one per column (may repeat)
     */
    EmbeddedResultSetMetaData(TableSchema schema, java.util.BitSet identityColumns, java.util.List<String> labels) {
        if (labels.size() != schema.size()) {
            throw new IllegalArgumentException(labels.size() + " labels for " + schema.size() + " columns");
        }
        this.schema = schema;
        this.identityColumns = identityColumns;
        this.labels = labels;
    }

    /** The names of {@code schema}'s columns: the labels of a result that knows no others. */
    static java.util.List<String> names(TableSchema schema) {
        return schema.columns().stream().map(Column::name).toList();
    }

    private Column column(int columnIndex) throws SQLException {
        if (columnIndex < 1 || columnIndex > schema.size()) {
            throw Errors.of(ErrorCode.INVALID_ARGUMENT, "column index " + columnIndex + " is out of range: the result has "
                    + schema.size() + " columns");
        }
        return schema.column(columnIndex - 1);
    }

    @Override
    public int getColumnCount() {
        return schema.size();
    }

    @Override
    public boolean isAutoIncrement(int column) throws SQLException {
        column(column);
        return identityColumns.get(column - 1);
    }

    /** Strings compare by their characters (no case-folding collation); other types have no case. */
    @Override
    public boolean isCaseSensitive(int column) throws SQLException {
        return JdbcTypes.isCharacter(column(column).type());
    }

    @Override
    public boolean isSearchable(int column) throws SQLException {
        column(column);
        return true;
    }

    @Override
    public boolean isCurrency(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public int isNullable(int column) throws SQLException {
        return column(column).nullable() ? columnNullable : columnNoNulls;
    }

    @Override
    public boolean isSigned(int column) throws SQLException {
        return JdbcTypes.isNumeric(column(column).type());
    }

    @Override
    public int getColumnDisplaySize(int column) throws SQLException {
        return JdbcTypes.displaySize(column(column).type());
    }

    /**
     * The label the query gave the column: {@code SELECT a.id, b.id} labels both {@code id}, as
     * SQL Server's and PostgreSQL's drivers report them, though the result's schema names the
     * second {@code id0} (core's schemas need distinct names; {@code findColumn("id0")} still finds it).
     */
    @Override
    public String getColumnLabel(int column) throws SQLException {
        column(column);
        return labels.get(column - 1);
    }

    /** The label, as SQL Server's driver reports it (no origin column names are passed to the result). */
    @Override
    public String getColumnName(int column) throws SQLException {
        return getColumnLabel(column);
    }

    @Override
    public String getSchemaName(int column) throws SQLException {
        column(column);
        return "";
    }

    @Override
    public int getPrecision(int column) throws SQLException {
        return JdbcTypes.precision(column(column).type());
    }

    @Override
    public int getScale(int column) throws SQLException {
        return JdbcTypes.scale(column(column).type());
    }

    @Override
    public String getTableName(int column) throws SQLException {
        column(column);
        return "";
    }

    @Override
    public String getCatalogName(int column) throws SQLException {
        column(column);
        return "";
    }

    @Override
    public int getColumnType(int column) throws SQLException {
        return JdbcTypes.jdbcType(column(column).type());
    }

    @Override
    public String getColumnTypeName(int column) throws SQLException {
        return JdbcTypes.typeName(column(column).type());
    }

    @Override
    public boolean isReadOnly(int column) throws SQLException {
        column(column);
        return true;
    }

    @Override
    public boolean isWritable(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public boolean isDefinitelyWritable(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public String getColumnClassName(int column) throws SQLException {
        return JdbcTypes.javaClass(column(column).type()).getName();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        throw Errors.of(ErrorCode.INVALID_ARGUMENT, "Columba's result set metadata does not wrap a " + type.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return type.isInstance(this);
    }
}

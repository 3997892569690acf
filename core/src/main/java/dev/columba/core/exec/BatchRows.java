package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;

/**
 * Row-by-row reading of one batch, for results consumed a row at a time (a JDBC
 * {@code ResultSet}). {@code row} counts live rows only (0 to {@link #rowCount()} - 1), so the
 * selection vector is invisible to the reader. Primitive getters return 0 or false for NULL
 * (check {@link #isNull}); getters convert within a family where no information is lost
 * (INT to BIGINT, exact numbers to DECIMAL, numbers to DOUBLE, DATE to TIMESTAMP) and
 * {@link #getString} formats any type as CAST to VARCHAR does; anything else is
 * {@link ErrorCode#WRONG_TYPE}. Valid as long as the batch.
 */
public final class BatchRows {
    private final Batch batch;
    private final TableSchema schema;

    public BatchRows(Batch batch, TableSchema schema) {
        this.batch = batch;
        this.schema = schema;
    }

    public int rowCount() {
        return batch.selectedCount();
    }

    public TableSchema schema() {
        return schema;
    }

    private FieldVector vector(int column) {
        return batch.column(column);
    }

    private int position(int row) {
        return batch.selectedRow(row);
    }

    private SqlType type(int column) {
        return schema.column(column).type();
    }

    public boolean isNull(int row, int column) {
        return vector(column).isNull(position(row));
    }

    public boolean getBoolean(int row, int column) {
        require(column, type(column) instanceof SqlType.BooleanType, "BOOLEAN");
        int position = position(row);
        BitVector vector = (BitVector) vector(column);
        return !vector.isNull(position) && vector.get(position) != 0;
    }

    public int getInt(int row, int column) {
        require(column, type(column) instanceof SqlType.IntegerType, "INT");
        int position = position(row);
        FieldVector vector = vector(column);
        return vector.isNull(position) ? 0 : vector.getDataBuffer().getInt((long) position * 4);
    }

    public long getLong(int row, int column) {
        int position = position(row);
        FieldVector vector = vector(column);
        return switch (type(column)) {
            case SqlType.IntegerType ignored -> vector.isNull(position) ? 0 : vector.getDataBuffer().getInt((long) position * 4);
            case SqlType.BigintType ignored -> vector.isNull(position) ? 0 : vector.getDataBuffer().getLong((long) position * 8);
            default -> throw wrongType(column, "BIGINT");
        };
    }

    public double getDouble(int row, int column) {
        int position = position(row);
        FieldVector vector = vector(column);
        if (vector.isNull(position)) {
            require(column, isNumeric(type(column)), "DOUBLE");
            return 0;
        }
        ArrowBuf data = vector.getDataBuffer();
        return switch (type(column)) {
            case SqlType.IntegerType ignored -> data.getInt((long) position * 4);
            case SqlType.BigintType ignored -> (double) data.getLong((long) position * 8);
            case SqlType.DoubleType ignored -> data.getDouble((long) position * 8);
            case SqlType.DecimalType ignored -> ((BigDecimal) VectorValues.get(vector, position, type(column))).doubleValue();
            default -> throw wrongType(column, "DOUBLE");
        };
    }

    public BigDecimal getDecimal(int row, int column) {
        Object value = getObject(row, column);
        return switch (value) {
            case null -> {
                require(column, isNumeric(type(column)), "DECIMAL");
                yield null;
            }
            case BigDecimal decimal -> decimal;
            case Integer number -> BigDecimal.valueOf(number);
            case Long number -> BigDecimal.valueOf(number);
            case Double number -> BigDecimal.valueOf(number);
            default -> throw wrongType(column, "DECIMAL");
        };
    }

    /** The value as text: strings as stored, other types as CAST to VARCHAR writes them; null for NULL. */
    public String getString(int row, int column) {
        Object value = getObject(row, column);
        if (value == null || value instanceof String) {
            return (String) value;
        }
        return (String) Evaluator.cast(value, type(column), SqlType.varchar(SqlType.VarcharType.MAX_LENGTH));
    }

    public LocalDate getDate(int row, int column) {
        int position = position(row);
        FieldVector vector = vector(column);
        return switch (type(column)) {
            case SqlType.DateType ignored -> vector.isNull(position) ? null : Values.daysToDate(vector.getDataBuffer().getInt((long) position * 4));
            case SqlType.TimestampType ignored -> vector.isNull(position) ? null : getTimestamp(row, column).toLocalDate();
            default -> throw wrongType(column, "DATE");
        };
    }

    public LocalDateTime getTimestamp(int row, int column) {
        int position = position(row);
        FieldVector vector = vector(column);
        return switch (type(column)) {
            case SqlType.TimestampType ignored -> vector.isNull(position)
                    ? null : Values.microsToTimestamp(vector.getDataBuffer().getLong((long) position * 8));
            case SqlType.DateType ignored -> vector.isNull(position) ? null : getDate(row, column).atStartOfDay();
            default -> throw wrongType(column, "TIMESTAMP");
        };
    }

    /** The value in its Java representation (see {@link SqlType}), or null. */
    public Object getObject(int row, int column) {
        return VectorValues.get(vector(column), position(row), type(column));
    }

    private static boolean isNumeric(SqlType type) {
        return type instanceof SqlType.IntegerType || type instanceof SqlType.BigintType
                || type instanceof SqlType.DoubleType || type instanceof SqlType.DecimalType;
    }

    private void require(int column, boolean fits, String wanted) {
        if (!fits) {
            throw wrongType(column, wanted);
        }
    }

    private ColumbaException wrongType(int column, String wanted) {
        return new ColumbaException(ErrorCode.WRONG_TYPE, "column " + (column + 1) + " (" + schema.column(column).name()
                + ") is " + type(column).sqlName() + " and cannot be read as " + wanted);
    }
}

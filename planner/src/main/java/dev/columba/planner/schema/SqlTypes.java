package dev.columba.planner.schema;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeName;

/** Columba's types as Calcite sees them, and back. */
public final class SqlTypes {
    private SqlTypes() {
    }

    /** Timestamps carry microseconds. */
    public static final int TIMESTAMP_PRECISION = 6;

    public static RelDataType toRelType(SqlType type, boolean nullable, RelDataTypeFactory factory) {
        RelDataType relType = switch (type) {
            case SqlType.BooleanType ignored -> factory.createSqlType(SqlTypeName.BOOLEAN);
            case SqlType.IntegerType ignored -> factory.createSqlType(SqlTypeName.INTEGER);
            case SqlType.BigintType ignored -> factory.createSqlType(SqlTypeName.BIGINT);
            case SqlType.DoubleType ignored -> factory.createSqlType(SqlTypeName.DOUBLE);
            case SqlType.DecimalType decimal -> factory.createSqlType(SqlTypeName.DECIMAL, decimal.precision(), decimal.scale());
            case SqlType.VarcharType varchar -> factory.createSqlType(SqlTypeName.VARCHAR, varchar.maxLength());
            case SqlType.CharType character -> factory.createSqlType(SqlTypeName.CHAR, character.length());
            case SqlType.DateType ignored -> factory.createSqlType(SqlTypeName.DATE);
            case SqlType.TimestampType ignored -> factory.createSqlType(SqlTypeName.TIMESTAMP, TIMESTAMP_PRECISION);
            case SqlType.VarbinaryType varbinary -> factory.createSqlType(SqlTypeName.VARBINARY, varbinary.maxLength());
            case SqlType.BinaryType binary -> factory.createSqlType(SqlTypeName.BINARY, binary.length());
            case SqlType.UuidType ignored -> factory.createSqlType(SqlTypeName.UUID);
        };
        return factory.createTypeWithNullability(relType, nullable);
    }

    public static RelDataType toRowType(TableSchema schema, RelDataTypeFactory factory) {
        RelDataTypeFactory.Builder builder = factory.builder();
        for (Column column : schema.columns()) {
            builder.add(column.name(), toRelType(column.type(), column.nullable(), factory));
        }
        return builder.build();
    }

    /**
     * The Columba type of a Calcite type.
     *
     * @throws ColumbaException WRONG_TYPE for a type Columba does not store, INVALID_ARGUMENT for a
     *     length or precision outside Columba's bounds
     */
    public static SqlType fromRelType(RelDataType type) {
        try {
            return basicType(type);
        } catch (IllegalArgumentException e) {
            // SqlType's bounds (lengths 1..8000, precision 1..38): a type the statement wrote, such as CAST(x AS CHAR(8001)).
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "type " + type.getFullTypeString() + ": " + e.getMessage());
        }
    }

    private static SqlType basicType(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case BOOLEAN -> SqlType.BOOLEAN;
            case TINYINT, SMALLINT, INTEGER -> SqlType.INT;
            case BIGINT -> SqlType.BIGINT;
            case FLOAT, REAL, DOUBLE -> SqlType.DOUBLE;
            case DECIMAL -> SqlType.decimal(Math.min(type.getPrecision(), SqlType.DecimalType.MAX_PRECISION),
                    Math.max(0, type.getScale()));
            case VARCHAR -> SqlType.varchar(type.getPrecision() <= 0 ? SqlType.VarcharType.MAX_LENGTH
                    : Math.min(type.getPrecision(), SqlType.VarcharType.MAX_LENGTH));
            // CHAR(0) is Calcite's type of the empty literal '': Columba has no zero-length type,
            // and CHAR(1) would pad it to ' '.
            case CHAR -> type.getPrecision() <= 0 ? SqlType.varchar(1) : SqlType.character(type.getPrecision());
            case DATE -> SqlType.DATE;
            case TIMESTAMP -> SqlType.TIMESTAMP;
            case VARBINARY -> SqlType.varbinary(type.getPrecision() <= 0 ? SqlType.VarbinaryType.MAX_LENGTH
                    : Math.min(type.getPrecision(), SqlType.VarbinaryType.MAX_LENGTH));
            // BINARY(0) is Calcite's type of the empty literal X'': as for CHAR(0), no zero-length type.
            case BINARY -> type.getPrecision() <= 0 ? SqlType.varbinary(1) : SqlType.binary(type.getPrecision());
            case UUID -> SqlType.UUID;
            case NULL -> SqlType.INT;
            default -> throw new ColumbaException(ErrorCode.WRONG_TYPE, "Columba does not store values of type "
                    + type.getFullTypeString());
        };
    }

    public static TableSchema fromRowType(RelDataType rowType) {
        List<Column> columns = new ArrayList<>();
        for (RelDataTypeField field : rowType.getFieldList()) {
            columns.add(new Column(field.getName(), fromRelType(field.getType()), field.getType().isNullable()));
        }
        return new TableSchema(columns);
    }
}

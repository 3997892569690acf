package dev.columba.planner.plan;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's type system shaped to Columba's types: TIMESTAMP to the microsecond (precision 6, the
 * default and the maximum), DECIMAL up to 38 digits, and the result types of SUM and AVG that
 * core's aggregates compute (H2's: SUM of INT is BIGINT, of BIGINT DECIMAL(38,0); AVG of INT is
 * DOUBLE; AVG of DECIMAL(p,s) keeps the p-s integer digits and adds up to ten of scale), so that a
 * sum of many INTs does not overflow INT and an average always fits its type. Ragged CHAR results of CASE and
 * UNION become VARCHAR, as SQL Server users expect ('odd' stays 'odd', not 'odd ').
 */
final class ColumbaTypeSystem extends RelDataTypeSystemImpl {
    static final ColumbaTypeSystem INSTANCE = new ColumbaTypeSystem();

    private static final int DECIMAL_MAX = 38;

    private ColumbaTypeSystem() {
    }

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        return switch (typeName) {
            case TIMESTAMP, TIME -> 6;
            case DECIMAL -> DECIMAL_MAX;
            default -> super.getMaxPrecision(typeName);
        };
    }

    @Override
    public int getDefaultPrecision(SqlTypeName typeName) {
        return switch (typeName) {
            case TIMESTAMP -> 6;
            default -> super.getDefaultPrecision(typeName);
        };
    }

    @Override
    public int getMaxScale(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? DECIMAL_MAX : super.getMaxScale(typeName);
    }

    @Override
    public int getMaxNumericPrecision() {
        return DECIMAL_MAX;
    }

    @Override
    public int getMaxNumericScale() {
        return DECIMAL_MAX;
    }

    @Override
    public boolean shouldConvertRaggedUnionTypesToVarying() {
        return true;
    }

    @Override
    public RelDataType deriveSumType(RelDataTypeFactory factory, RelDataType argumentType) {
        RelDataType type = switch (argumentType.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER -> factory.createSqlType(SqlTypeName.BIGINT);
            case BIGINT -> factory.createSqlType(SqlTypeName.DECIMAL, DECIMAL_MAX, 0);
            case DECIMAL -> factory.createSqlType(SqlTypeName.DECIMAL,
                    Math.min(DECIMAL_MAX, argumentType.getPrecision() + 10), argumentType.getScale());
            case FLOAT, REAL, DOUBLE -> factory.createSqlType(SqlTypeName.DOUBLE);
            default -> argumentType;
        };
        return factory.createTypeWithNullability(type, argumentType.isNullable());
    }

    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory factory, RelDataType argumentType) {
        RelDataType type = switch (argumentType.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, FLOAT, REAL, DOUBLE -> factory.createSqlType(SqlTypeName.DOUBLE);
            case BIGINT -> factory.createSqlType(SqlTypeName.DECIMAL, 29, 10);
            case DECIMAL -> {
                // An average is never larger than the largest value averaged, so it keeps every integer
                // digit of the argument's type, and gains up to ten digits of scale in the room left.
                // Ten more whatever the room (DECIMAL(38,19) averaged as DECIMAL(38,29)) left nine integer
                // digits, and an average of 10^9 or more failed to fit its own type (issue 15).
                int integerDigits = argumentType.getPrecision() - argumentType.getScale();
                int scale = Math.max(argumentType.getScale(),
                        Math.min(argumentType.getScale() + 10, DECIMAL_MAX - integerDigits));
                yield factory.createSqlType(SqlTypeName.DECIMAL,
                        Math.min(DECIMAL_MAX, Math.max(argumentType.getPrecision() + 10, integerDigits + scale)), scale);
            }
            default -> argumentType;
        };
        return factory.createTypeWithNullability(type, argumentType.isNullable());
    }
}

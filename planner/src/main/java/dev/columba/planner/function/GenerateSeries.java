package dev.columba.planner.function;

import java.util.Arrays;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlTableFunction;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * {@code generate_series(start, stop [, step])}, PostgreSQL's table function over whole numbers:
 * one NOT NULL column named {@code generate_series} holding {@code start}, {@code start + step},
 * ... while the value has not passed {@code stop} ({@code step} defaults to 1 and may be
 * negative). Usable wherever a table is: {@code FROM generate_series(1, 10)}, with an alias and a
 * column alias ({@code AS g(n)}), in joins and as the source of {@code INSERT ... SELECT}.
 *
 * <p>Types, as PostgreSQL resolves its overloads: the column is INT when every argument is INT
 * (or SMALLINT, TINYINT), else BIGINT. Arguments must be whole numbers: a DECIMAL, DOUBLE or
 * string argument is a type error (SQLSTATE 42804), not a conversion. A {@code ?} parameter takes
 * the type of the first typed argument, BIGINT if none is typed. A NULL argument or a zero step is
 * an error when the statement runs (22023); PostgreSQL returns no rows for NULL, but a NULL bound
 * by mistake would silently insert nothing, so Columba refuses it.
 *
 * <p>Registered in the planner's operator table; Calcite validates a call in FROM as a
 * {@link SqlTableFunction} (its row type from {@link #getRowTypeInference()}) and converts it to a
 * {@code LogicalTableFunctionScan}, which a rule turns into Columba's physical node.
 */
public final class GenerateSeries extends SqlFunction implements SqlTableFunction {
    public static final GenerateSeries INSTANCE = new GenerateSeries();

    /** The function's name, which is also the name of its only column. */
    public static final String NAME = "generate_series";

    private GenerateSeries() {
        super(NAME, SqlKind.OTHER_FUNCTION, ReturnTypes.CURSOR, GenerateSeries::inferOperandTypes, null,
                SqlFunctionCategory.USER_DEFINED_TABLE_FUNCTION);
    }

    @Override
    public SqlReturnTypeInference getRowTypeInference() {
        return GenerateSeries::rowType;
    }

    @Override
    public SqlOperandCountRange getOperandCountRange() {
        return SqlOperandCountRanges.between(2, 3);
    }

    @Override
    public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
        for (int operand = 0; operand < binding.getOperandCount(); operand++) {
            RelDataType type = binding.getOperandType(operand);
            if (!SqlTypeUtil.isIntType(type) && type.getSqlTypeName() != SqlTypeName.NULL) {
                if (throwOnFailure) {
                    throw binding.newValidationSignatureError();
                }
                return false;
            }
        }
        return true;
    }

    @Override
    public String getAllowedSignatures(String name) {
        return NAME + "(<INTEGER>, <INTEGER>)\n" + NAME + "(<INTEGER>, <INTEGER>, <INTEGER>)\n"
                + NAME + "(<BIGINT>, <BIGINT>)\n" + NAME + "(<BIGINT>, <BIGINT>, <BIGINT>)";
    }

    /** The column's type: INT if every argument is at most INT, else BIGINT. */
    private static RelDataType rowType(SqlOperatorBinding binding) {
        RelDataTypeFactory factory = binding.getTypeFactory();
        boolean allInt = true;
        for (int operand = 0; operand < binding.getOperandCount(); operand++) {
            SqlTypeName type = binding.getOperandType(operand).getSqlTypeName();
            allInt &= type == SqlTypeName.INTEGER || type == SqlTypeName.SMALLINT || type == SqlTypeName.TINYINT
                    || type == SqlTypeName.NULL;
        }
        RelDataType column = factory.createSqlType(allInt ? SqlTypeName.INTEGER : SqlTypeName.BIGINT);
        return factory.builder().add(NAME, column).build();
    }

    /** {@code ?} and NULL arguments take the type of the first whole-number argument, else BIGINT. */
    private static void inferOperandTypes(SqlCallBinding binding, RelDataType returnType, RelDataType[] operandTypes) {
        RelDataType known = null;
        for (int operand = 0; operand < binding.getOperandCount() && known == null; operand++) {
            SqlNode node = binding.operand(operand);
            if (node instanceof SqlDynamicParam || SqlUtil.isNullLiteral(node, false)) {
                continue;
            }
            RelDataType type = SqlTypeUtil.deriveType(binding, node);
            if (SqlTypeUtil.isIntType(type)) {
                known = type;
            }
        }
        RelDataTypeFactory factory = binding.getTypeFactory();
        RelDataType inferred = known != null ? known : factory.createSqlType(SqlTypeName.BIGINT);
        Arrays.fill(operandTypes, factory.createTypeWithNullability(inferred, true));
    }
}

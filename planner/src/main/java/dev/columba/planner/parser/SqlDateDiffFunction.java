package dev.columba.planner.parser;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * SQL Server's {@code DATEDIFF(datepart, start, end)}: the number of {@code datepart} boundaries
 * crossed going from {@code start} to {@code end} (DATE or TIMESTAMP), as INT, negative when
 * {@code end} is earlier, NULL when either is NULL. {@code DATEDIFF(year, '2020-12-31',
 * '2021-01-01')} is 1, not Calcite's TIMESTAMPDIFF's 0. The parser makes the call
 * ({@link #call}); its first operand is the unit's name as a string literal, which core's
 * {@code ScalarFunction.DATEDIFF} takes. It is written back as {@code DATEDIFF(DAY, a, b)}.
 */
public final class SqlDateDiffFunction extends SqlFunction {
    public static final SqlDateDiffFunction INSTANCE = new SqlDateDiffFunction();

    private SqlDateDiffFunction() {
        super("DATEDIFF", SqlKind.OTHER_FUNCTION, ReturnTypes.INTEGER_NULLABLE, null,
                OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.DATETIME, SqlTypeFamily.DATETIME),
                SqlFunctionCategory.TIMEDATE);
    }

    /** {@code DATEDIFF(part, start, end)}. */
    public static SqlCall call(SqlParserPos position, DatePart part, SqlNode start, SqlNode end) {
        SqlNode unit = SqlLiteral.createCharString(countingUnit(part), position);
        return INSTANCE.createCall(position, unit, start, end);
    }

    /** The unit core counts in: DAYOFYEAR and WEEKDAY count days. */
    private static String countingUnit(DatePart part) {
        return switch (part) {
            case DAYOFYEAR, WEEKDAY -> DatePart.DAY.name();
            default -> part.name();
        };
    }

    /** Not looked up by name in the operator table: the parser made the call with this operator. */
    @Override
    public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
        for (SqlNode operand : call.getOperandList()) {
            validator.deriveType(scope, operand);
        }
        return validateOperands(validator, scope, call);
    }

    @Override
    public void unparse(SqlWriter writer, SqlCall call, int leftPrec, int rightPrec) {
        SqlWriter.Frame frame = writer.startFunCall(getName());
        writer.keyword(((SqlLiteral) call.operand(0)).getValueAs(String.class));
        writer.sep(",", true);
        call.operand(1).unparse(writer, 0, 0);
        writer.sep(",", true);
        call.operand(2).unparse(writer, 0, 0);
        writer.endFunCall(frame);
    }
}

package dev.columba.planner.plan;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.math.BigDecimal;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Rules of SQL that Calcite's parser lets through and its validator and converter assume without
 * checking, so that breaking them ended in a ClassCastException, an UnsupportedOperationException
 * or an AssertionError deep in planning (issue 15). Checked on the parsed statement before
 * validation, each with the position of the offending clause:
 * <ul>
 *   <li>a row count of LIMIT, OFFSET, FETCH or TOP written as a number is a whole number from 0
 *       to 9223372036854775807 ({@code LIMIT 1e308}, {@code LIMIT 1e-39});</li>
 *   <li>an ORDER BY item is not a parameter ({@code ORDER BY ?}: SQL Server's Msg 1008, a sort
 *       key must name a column or an expression);</li>
 *   <li>EXISTS takes a sub-query ({@code EXISTS EXISTS (SELECT ...)}).</li>
 * </ul>
 */
final class ClauseChecks extends SqlBasicVisitor<Void> {
    private static final BigDecimal MAX_ROW_COUNT = BigDecimal.valueOf(Long.MAX_VALUE);

    private ClauseChecks() {
    }

    /** @throws ColumbaException if {@code statement} breaks one of the rules above */
    static void check(SqlNode statement) {
        statement.accept(new ClauseChecks());
    }

    @Override
    public Void visit(SqlCall call) {
        switch (call) {
            case SqlOrderBy orderBy -> {
                rowCount(orderBy.offset, "OFFSET");
                rowCount(orderBy.fetch, "LIMIT (FETCH)");
                sortKeys(orderBy.orderList);
            }
            case SqlSelect select -> {
                rowCount(select.getOffset(), "OFFSET");
                rowCount(select.getFetch(), "LIMIT (FETCH)");
                sortKeys(select.getOrderList());
            }
            default -> {
                if (call.getKind() == SqlKind.EXISTS) {
                    SqlNode operand = call.operand(0);
                    if (!operand.isA(SqlKind.QUERY)) {
                        throw error(ErrorCode.INVALID_STATEMENT, "EXISTS needs a sub-query, found " + operand.getKind(),
                                operand.getParserPosition());
                    }
                }
            }
        }
        return super.visit(call);
    }

    private static void rowCount(SqlNode count, String clause) {
        if (!(count instanceof SqlNumericLiteral literal)) {
            return;
        }
        BigDecimal value = literal.getValueAs(BigDecimal.class);
        if (value.signum() < 0 || value.stripTrailingZeros().scale() > 0) {
            throw error(ErrorCode.INVALID_ARGUMENT, "the row count of " + clause + " must be a whole number of 0 or more, not "
                    + literal.toValue(), literal.getParserPosition());
        }
        if (value.compareTo(MAX_ROW_COUNT) > 0) {
            throw error(ErrorCode.VALUE_OUT_OF_RANGE, "the row count of " + clause + " is " + literal.toValue()
                    + ", above the largest one allowed (" + Long.MAX_VALUE + ")", literal.getParserPosition());
        }
    }

    private static void sortKeys(SqlNodeList orderList) {
        if (orderList == null) {
            return;
        }
        for (SqlNode item : orderList) {
            SqlNode key = item;
            while (key instanceof SqlCall call && (key.getKind() == SqlKind.DESCENDING
                    || key.getKind() == SqlKind.NULLS_FIRST || key.getKind() == SqlKind.NULLS_LAST)) {
                key = call.operand(0);
            }
            if (key instanceof SqlDynamicParam) {
                throw error(ErrorCode.INVALID_STATEMENT, "an ORDER BY item cannot be a parameter: a sort key names a column,"
                        + " an expression or a position in the select list", key.getParserPosition());
            }
        }
    }

    private static ColumbaException error(ErrorCode code, String message, SqlParserPos position) {
        String at = position.getLineNum() > 0
                ? " at line " + position.getLineNum() + ", column " + position.getColumnNum() : "";
        return new ColumbaException(code, message + at);
    }
}

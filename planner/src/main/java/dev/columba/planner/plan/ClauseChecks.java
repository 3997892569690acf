package dev.columba.planner.plan;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
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
 *   <li>EXISTS takes a sub-query ({@code EXISTS EXISTS (SELECT ...)});</li>
 *   <li>the right side of IN, NOT IN, {@code = ANY} or {@code < ALL} is a list in parentheses or a
 *       sub-query: the parser reads {@code i IN (SELECT i FROM c) * NULL} as IN of the product
 *       {@code (SELECT ...) * NULL}, operators binding tighter than IN, and the converter asserted
 *       "not a query";</li>
 *   <li>COALESCE takes at least one argument;</li>
 *   <li>a WHEN of a searched CASE is one condition ({@code CASE WHEN i, 5 THEN ...}: only a simple
 *       CASE compares its value with a list);</li>
 *   <li>a PRECEDING or FOLLOWING offset of a ROWS frame is a number ({@code ROWS BETWEEN 'a'
 *       PRECEDING ...});</li>
 *   <li>a window function and its window hold no sub-query (Calcite converts none there: 0A000);</li>
 *   <li>the ESCAPE of LIKE or SIMILAR TO written as a string is one character (22025);</li>
 *   <li>a string literal is at most {@link SqlType.CharType#MAX_LENGTH} characters, the longest
 *       CHAR (22023; the decorrelator failed with a NullPointerException on a longer one in a
 *       correlated sub-query, where elsewhere its type is refused);</li>
 *   <li>VALUES holds no window function, and no column of it has both a date/time literal and a
 *       number or boolean literal (Calcite's coercion typed such a column DATE and left the number
 *       as it was).</li>
 * </ul>
 * These were found by the SQL fuzzing campaign ({@code ./columba bench reliability}).
 */
final class ClauseChecks extends SqlBasicVisitor<Void> {
    private static final BigDecimal MAX_ROW_COUNT = BigDecimal.valueOf(Long.MAX_VALUE);
    /** IN, NOT IN and the quantified comparisons ({@code = ANY}, {@code < ALL}): their right side is a list or a query. */
    private static final Set<SqlKind> QUANTIFIED = Set.of(SqlKind.IN, SqlKind.NOT_IN, SqlKind.SOME, SqlKind.ALL);

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
            case SqlCase searched when searched.getValueOperand() == null -> {
                for (SqlNode condition : searched.getWhenOperands()) {
                    if (condition instanceof SqlNodeList list && list.size() != 1) {
                        throw error(ErrorCode.INVALID_STATEMENT, "a WHEN of a searched CASE takes one condition, found "
                                + list.size(), condition.getParserPosition());
                    }
                }
            }
            case SqlWindow window when window.isRows() -> {
                rowsOffset(window.getLowerBound());
                rowsOffset(window.getUpperBound());
            }
            default -> {
                if (call.getKind() == SqlKind.VALUES) {
                    values(call);
                }
                if ((call.getKind() == SqlKind.LIKE || call.getKind() == SqlKind.SIMILAR) && call.operandCount() == 3
                        && call.operand(2) instanceof SqlCharStringLiteral escape
                        && escape.getValueAs(String.class).length() != 1) {
                    throw error(ErrorCode.INVALID_ESCAPE_SEQUENCE, "the ESCAPE of " + call.getOperator().getName()
                            + " must be one character, not " + escape, escape.getParserPosition());
                }
                if (call.getKind() == SqlKind.OVER && containsQuery(call)) {
                    throw error(ErrorCode.FEATURE_NOT_SUPPORTED, "a sub-query in a window function or its OVER clause"
                            + " is not supported", call.getParserPosition());
                }
                if (call.operandCount() == 0 && call.getOperator().getName().equalsIgnoreCase("COALESCE")) {
                    throw error(ErrorCode.INVALID_STATEMENT, "COALESCE needs at least one argument",
                            call.getParserPosition());
                }
                if (call.isA(QUANTIFIED) && call.operandCount() == 2 && !(call.operand(1) instanceof SqlNodeList)
                        && !call.operand(1).isA(SqlKind.QUERY)) {
                    throw error(ErrorCode.INVALID_STATEMENT, "the right side of " + call.getOperator().getName()
                            + " must be a list of values in parentheses or a sub-query, found " + call.operand(1)
                            + "; an operator after the parentheses applies to them, not to the result of "
                            + call.getOperator().getName(), call.operand(1).getParserPosition());
                }
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

    @Override
    public Void visit(SqlLiteral literal) {
        if (literal instanceof SqlCharStringLiteral text
                && text.getValueAs(String.class).codePointCount(0, text.getValueAs(String.class).length())
                        > SqlType.CharType.MAX_LENGTH) {
            throw error(ErrorCode.INVALID_ARGUMENT, "a string literal of "
                    + text.getValueAs(String.class).length() + " characters is longer than the "
                    + SqlType.CharType.MAX_LENGTH + " a CHAR holds; pass long text as a parameter",
                    literal.getParserPosition());
        }
        return null;
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

    private static void values(SqlCall values) {
        if (contains(values, Set.of(SqlKind.OVER))) {
            throw error(ErrorCode.INVALID_STATEMENT, "a window function (OVER) cannot be used in VALUES",
                    values.getParserPosition());
        }
        Map<Integer, SqlLiteral> dateTimes = new HashMap<>();
        Map<Integer, SqlLiteral> others = new HashMap<>();
        for (SqlNode row : values.getOperandList()) {
            if (!(row instanceof SqlCall rowCall) || row.getKind() != SqlKind.ROW) {
                continue;
            }
            for (int column = 0; column < rowCall.operandCount(); column++) {
                if (rowCall.operand(column) instanceof SqlLiteral literal) {
                    // DATE '...' and its kin stay unknown literals until validation: their tag names the type.
                    SqlTypeName type = literal instanceof SqlUnknownLiteral unknown
                            ? SqlTypeName.get(unknown.tag.toUpperCase(java.util.Locale.ROOT)) : literal.getTypeName();
                    SqlTypeFamily family = type == null ? null : type.getFamily();
                    if (family == SqlTypeFamily.DATE || family == SqlTypeFamily.TIME || family == SqlTypeFamily.TIMESTAMP) {
                        dateTimes.putIfAbsent(column, literal);
                    } else if (family == SqlTypeFamily.NUMERIC || family == SqlTypeFamily.BOOLEAN) {
                        others.putIfAbsent(column, literal);
                    }
                }
            }
        }
        for (Map.Entry<Integer, SqlLiteral> dateTime : dateTimes.entrySet()) {
            SqlLiteral other = others.get(dateTime.getKey());
            if (other != null) {
                throw error(ErrorCode.WRONG_TYPE, "column " + (dateTime.getKey() + 1) + " of VALUES has both "
                        + dateTime.getValue() + " and " + other + ", which have no common type", other.getParserPosition());
            }
        }
    }

    private static boolean containsQuery(SqlNode node) {
        return contains(node, SqlKind.QUERY);
    }

    private static boolean contains(SqlNode node, Set<SqlKind> kinds) {
        if (node instanceof SqlCall call) {
            if (call.isA(kinds)) {
                return true;
            }
            for (SqlNode operand : call.getOperandList()) {
                if (operand != null && contains(operand, kinds)) {
                    return true;
                }
            }
        } else if (node instanceof SqlNodeList list) {
            for (SqlNode item : list) {
                if (item != null && contains(item, kinds)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void rowsOffset(SqlNode bound) {
        if (bound instanceof SqlCall call && (bound.getKind() == SqlKind.PRECEDING || bound.getKind() == SqlKind.FOLLOWING)) {
            SqlNode offset = call.operand(0);
            if (offset instanceof SqlLiteral literal && !(literal instanceof SqlNumericLiteral)
                    && literal.getTypeName() != SqlTypeName.NULL) {
                throw error(ErrorCode.INVALID_STATEMENT, "ROWS value must be a non-negative integral constant, not "
                        + literal, literal.getParserPosition());
            }
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

package dev.columba.planner.plan;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.math.BigDecimal;
import java.util.EnumSet;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * Calcite's convertlets, except that a strict operator (arithmetic, LIKE, SIMILAR TO, a comparison)
 * with the NULL literal as an operand, or a strict operand that has one, becomes a NULL of the type
 * the validator gave the call: that is its value
 * on every row, and the standard conversion goes wrong on it (issue 15). Calcite's simplifier
 * dereferences a LIKE pattern's value without a null check ({@code (i/2) LIKE NULL} was a
 * NullPointerException), and an untyped NULL in arithmetic is converted with another type than the
 * validator derived, so that an aggregate over it ({@code SUM(l_quantity * NULL)}) has two types
 * and a later rule fails an assertion ("mismatched type").
 *
 * <p>A CASE whose converted type differs from the validated one is cast to the validated type:
 * with a parameter among string results ({@code CASE WHEN i > 5 THEN 'big' WHEN ... THEN ? ELSE
 * 'small' END}) the validator typed it CHAR(5) and the conversion VARCHAR(5), and the converter's
 * own check failed an assertion (issue 15; found again by the SQL fuzzing campaign). Results
 * with no common type at all that the validator let through because a parameter was among them
 * are 42804, as they are without the parameter.
 */
final class ColumbaConvertlets implements SqlRexConvertletTable {
    static final ColumbaConvertlets INSTANCE = new ColumbaConvertlets();

    private static final SqlRexConvertlet NULL_OF_ITS_TYPE = (context, call) -> {
        // Types the validator knows (a computed column's expression is converted without this validator's types).
        RelDataType type = context.getValidator().getValidatedNodeTypeIfKnown(call);
        return type == null ? StandardConvertletTable.INSTANCE.get(call).convertCall(context, call)
                : context.getRexBuilder().makeNullLiteral(type);
    };

    /** Operators whose value is NULL when any operand is: arithmetic, LIKE, SIMILAR TO and the comparisons. */
    private static final Set<SqlKind> STRICT = EnumSet.of(SqlKind.LIKE, SqlKind.SIMILAR, SqlKind.PLUS, SqlKind.MINUS,
            SqlKind.TIMES, SqlKind.DIVIDE, SqlKind.MOD, SqlKind.MINUS_PREFIX, SqlKind.EQUALS, SqlKind.NOT_EQUALS,
            SqlKind.LESS_THAN, SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN, SqlKind.GREATER_THAN_OR_EQUAL);

    private ColumbaConvertlets() {
    }

    private static final SqlRexConvertlet CASE_OF_ITS_VALIDATED_TYPE = (context, call) -> {
        RexNode converted;
        try {
            converted = StandardConvertletTable.INSTANCE.get(call).convertCall(context, call);
        } catch (RuntimeException e) {
            // The validator lets results without a common type through when a parameter is among
            // them (CASE ... THEN X'FF' ... THEN ? ELSE 'small' END); the conversion then finds none
            // and fails with a NullPointerException, which the reflective convertlet wraps.
            Throwable cause = e;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause instanceof NullPointerException missing && String.valueOf(missing.getMessage())
                    .startsWith("Can't find leastRestrictive type")) {
                throw new ColumbaException(ErrorCode.WRONG_TYPE, "the results of CASE have no common type ("
                        + call.getParserPosition() + "): " + missing.getMessage(), e);
            }
            throw e;
        }
        RelDataType validated = context.getValidator().getValidatedNodeType(call);
        return converted.getType().equals(validated) ? converted
                : context.getRexBuilder().makeAbstractCast(validated, converted, false);
    };

    /**
     * {@code CAST(approximate AS [VAR]CHAR(n))} as {@code CAST(SUBSTRING(CAST(x AS VARCHAR) FROM 1 FOR n) AS
     * [VAR]CHAR(n))}: the same value, in a form Calcite's simplifier cannot drop. Its lossless-cast test
     * (RexUtil.isLosslessCast) takes a DOUBLE's unspecified scale, Integer.MIN_VALUE, for a length, finds any
     * DOUBLE to VARCHAR(n) lossless, and simplified {@code CAST(CAST(f AS VARCHAR(1)) AS DECIMAL(20, 2))} to
     * {@code CAST(f AS DECIMAL(20, 2))}: 10000000000.00 for f = 1e10 instead of 1.00, a silently wrong answer
     * (found by the SQL fuzzing campaign, bench/results/rel15e-20261127.md).
     */
    private static final SqlRexConvertlet CAST_KEEPING_APPROXIMATE_TO_BOUNDED_TEXT = (context, call) -> {
        RexBuilder builder = context.getRexBuilder();
        // Types the validator knows (a computed column's expression is converted without this validator's types).
        RelDataType target = context.getValidator().getValidatedNodeTypeIfKnown(call);
        RelDataType source = context.getValidator().getValidatedNodeTypeIfKnown(call.operand(0));
        if (target == null || source == null || !SqlTypeUtil.isApproximateNumeric(source) || !SqlTypeUtil.isCharacter(target)
                || target.getPrecision() <= 0) {
            return StandardConvertletTable.INSTANCE.get(call).convertCall(context, call);
        }
        RexNode value = context.convertExpression(call.operand(0));
        RelDataType text = builder.getTypeFactory().createTypeWithNullability(
                builder.getTypeFactory().createSqlType(SqlTypeName.VARCHAR), value.getType().isNullable());
        RexNode cut = builder.makeCall(SqlStdOperatorTable.SUBSTRING, builder.makeCast(text, value),
                builder.makeExactLiteral(BigDecimal.ONE), builder.makeExactLiteral(BigDecimal.valueOf(target.getPrecision())));
        return builder.makeCast(target, cut);
    };

    @Override
    public SqlRexConvertlet get(SqlCall call) {
        if (call.getKind() == SqlKind.CASE) {
            return CASE_OF_ITS_VALIDATED_TYPE;
        }
        if (call.getKind() == SqlKind.CAST && call.operandCount() == 2) {
            return CAST_KEEPING_APPROXIMATE_TO_BOUNDED_TEXT;
        }
        if (STRICT.contains(call.getKind())) {
            for (SqlNode operand : call.getOperandList()) {
                if (alwaysNull(operand)) {
                    return NULL_OF_ITS_TYPE;
                }
            }
        }
        return StandardConvertletTable.INSTANCE.get(call);
    }

    /**
     * Whether {@code node} is NULL on every row: the NULL literal, a CAST of such a value, or a strict
     * call with such an operand, however deep. Looking through the operands, not only at them, matters
     * because the operand's own conversion to NULL comes too late for the standard conversion of its
     * parent: {@code dt LIKE NULL + 1} was a NullPointerException (LIKE on a DATE and an INTEGER
     * NULL), and {@code c.id = r.id LIKE NULL} in a correlated sub-query left a comparison with a NULL
     * literal that Calcite's predicate pull-up asserts never to see (both found by the SQL fuzzing
     * campaign, bench/results/rel15e-20261127.md).
     */
    private static boolean alwaysNull(SqlNode node) {
        if (node == null) {
            return false;
        }
        if (SqlUtil.isNullLiteral(node, true)) {
            return true;
        }
        if (node instanceof SqlCall call && call.getKind() == SqlKind.CAST) {
            // The validator's implicit coercions wrap operands in CASTs (a DATE compared as text, a
            // BOOLEAN as a number), and a CAST of NULL is NULL.
            return alwaysNull(call.operand(0));
        }
        if (node instanceof SqlCall call && STRICT.contains(call.getKind())) {
            for (SqlNode operand : call.getOperandList()) {
                if (alwaysNull(operand)) {
                    return true;
                }
            }
        }
        return false;
    }
}

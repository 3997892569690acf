package dev.columba.planner.rules;

import dev.columba.core.expr.Evaluator;
import dev.columba.core.expr.TypeRules;
import dev.columba.core.type.SqlType;
import dev.columba.planner.rel.ExpressionTranslator;
import dev.columba.planner.schema.SqlTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/** Helpers of the pushdown rules: splitting conditions into {@code column op constant} comparisons. */
final class Conjuncts {
    private Conjuncts() {
    }

    /** {@code column op constant}, normalized with the column on the left. */
    record Comparison(int column, SqlKind kind, RexNode constant, RexNode original) {
    }

    /** The conjuncts of {@code condition}, SEARCH ranges expanded to comparisons. */
    static List<RexNode> split(RexBuilder builder, RexNode condition) {
        List<RexNode> conjuncts = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(condition)) {
            if (conjunct.getKind() == SqlKind.SEARCH) {
                conjuncts.addAll(RelOptUtil.conjunctions(RexUtil.expandSearch(builder, null, conjunct)));
            } else {
                conjuncts.add(conjunct);
            }
        }
        return conjuncts;
    }

    /** The conjunct as a comparison of an input column with a constant, or null. */
    static Comparison comparison(RexNode conjunct) {
        if (!(conjunct instanceof RexCall call) || call.getOperands().size() != 2) {
            return null;
        }
        SqlKind kind = conjunct.getKind();
        if (kind != SqlKind.EQUALS && kind != SqlKind.LESS_THAN && kind != SqlKind.LESS_THAN_OR_EQUAL
                && kind != SqlKind.GREATER_THAN && kind != SqlKind.GREATER_THAN_OR_EQUAL && kind != SqlKind.NOT_EQUALS) {
            return null;
        }
        RexNode left = call.getOperands().get(0);
        RexNode right = call.getOperands().get(1);
        if (left instanceof RexInputRef reference && constant(right)) {
            return new Comparison(reference.getIndex(), kind, right, conjunct);
        }
        if (right instanceof RexInputRef reference && constant(left)) {
            return new Comparison(reference.getIndex(), kind.reverse(), left, conjunct);
        }
        return null;
    }

    static boolean constant(RexNode node) {
        return (node instanceof RexLiteral literal && !literal.isNull()) || node instanceof RexDynamicParam;
    }

    /**
     * Whether {@code constant} can stand for a value of a column of {@code columnType} exactly: a
     * parameter of the column's family, or a literal whose value converts without loss.
     */
    static boolean fits(RexNode constant, SqlType columnType) {
        SqlType constantType;
        try {
            constantType = SqlTypes.fromRelType(constant.getType());
        } catch (RuntimeException e) {
            return false;
        }
        if (TypeRules.family(constantType) != TypeRules.family(columnType)) {
            return false;
        }
        if (constant instanceof RexLiteral literal) {
            try {
                Object value = ExpressionTranslator.literalValue(literal, constantType);
                Object converted = constantType.equals(columnType) ? value : Evaluator.cast(value, constantType, columnType);
                return dev.columba.core.expr.Comparisons.compare(value, converted) == 0;
            } catch (RuntimeException e) {
                return false;
            }
        }
        return constantType.equals(columnType) || (TypeRules.isInteger(constantType) && TypeRules.isInteger(columnType));
    }
}

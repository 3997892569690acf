package dev.columba.planner.plan;

import dev.columba.core.expr.Evaluator;
import dev.columba.core.expr.EvaluationContext;
import dev.columba.core.expr.Expr;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.planner.rel.ExpressionTranslator;
import dev.columba.planner.rules.ValuesReduceRules;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;

/**
 * Folds constant expressions while planning with core's reference evaluator, so the planner and
 * the operators agree on every value (Calcite's own executor would compile Java with Janino and
 * apply Calcite's semantics). An expression core cannot translate, or whose evaluation fails
 * (1/0), is left as it is, to fail at run time only if a row reaches it.
 */
final class ColumbaRexExecutor implements RexExecutor {
    /** Constant folding never sees CURRENT_DATE (Calcite treats it as dynamic), so any time serves. */
    private static final EvaluationContext FOLDING = new EvaluationContext(LocalDateTime.of(2000, 1, 1, 0, 0));
    private static final TableSchema NO_INPUT = TableSchema.of(Column.nullable("unused", SqlType.INT));

    @Override
    public void reduce(RexBuilder rexBuilder, List<RexNode> constExps, List<RexNode> reducedValues) {
        ExpressionTranslator translator = new ExpressionTranslator(NO_INPUT, rexBuilder, null);
        for (RexNode expression : constExps) {
            reducedValues.add(fold(rexBuilder, translator, expression));
        }
    }

    private static RexNode fold(RexBuilder rexBuilder, ExpressionTranslator translator, RexNode expression) {
        try {
            if (ValuesReduceRules.hasParameter(expression)) {
                return expression;
            }
            Expr translated = translator.translate(expression);
            Object value = Evaluator.evaluate(translated, new Object[0], FOLDING);
            return literal(rexBuilder, value, expression.getType(), translated.type());
        } catch (RuntimeException e) {
            return expression;
        }
    }

    private static RexNode literal(RexBuilder rexBuilder, Object value, RelDataType type, SqlType columbaType) {
        if (value == null) {
            return rexBuilder.makeNullLiteral(type);
        }
        Object calciteValue = switch (value) {
            case Integer number -> BigDecimal.valueOf(number);
            case Long number -> BigDecimal.valueOf(number);
            case Double number -> number;
            case BigDecimal number -> number;
            case String string -> string;
            case Boolean bool -> bool;
            case LocalDate date -> new DateString(date.toString());
            case LocalDateTime timestamp -> new TimestampString(timestamp.getYear(), timestamp.getMonthValue(),
                    timestamp.getDayOfMonth(), timestamp.getHour(), timestamp.getMinute(), timestamp.getSecond())
                    .withNanos(timestamp.getNano());
            default -> throw new IllegalArgumentException("cannot fold a " + value.getClass());
        };
        return rexBuilder.makeLiteral(calciteValue, type, true);
    }
}

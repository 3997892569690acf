package dev.columba.core.expr;

import dev.columba.core.schema.TableSchema;

/**
 * Whether an expression can be NULL, from the nullability of the input columns it reads: the
 * column nullability a planner reports for a projection. Conservative: "may be NULL".
 */
public final class Nullability {
    private Nullability() {
    }

    public static boolean nullable(Expr expression, TableSchema input) {
        return switch (expression) {
            case Expr.ColumnReference column -> input.column(column.index()).nullable();
            case Expr.Literal literal -> literal.value() == null;
            case Expr.Is ignored -> false;
            case Expr.CurrentDate ignored -> false;
            case Expr.CurrentTimestamp ignored -> false;
            case Expr.Comparison comparison -> !comparison.operator().nullSafe() && anyNullable(expression, input);
            case Expr.Coalesce coalesce -> {
                for (Expr operand : coalesce.operands()) {
                    if (!nullable(operand, input)) {
                        yield false;
                    }
                }
                yield true;
            }
            case Expr.Case caseExpression -> {
                boolean nullable = nullable(caseExpression.otherwise(), input);
                for (Expr.Case.When when : caseExpression.whens()) {
                    nullable |= nullable(when.result(), input);
                }
                yield nullable;
            }
            case Expr.And ignored -> anyNullable(expression, input);
            case Expr.Or ignored -> anyNullable(expression, input);
            case Expr.Not ignored -> anyNullable(expression, input);
            case Expr.Arithmetic ignored -> anyNullable(expression, input);
            case Expr.Negate ignored -> anyNullable(expression, input);
            case Expr.Cast ignored -> anyNullable(expression, input);
            case Expr.Like ignored -> anyNullable(expression, input);
            case Expr.InList ignored -> anyNullable(expression, input);
            case Expr.Between ignored -> anyNullable(expression, input);
            case Expr.Call ignored -> anyNullable(expression, input);
            case Expr.Extract ignored -> anyNullable(expression, input);
            case Expr.DateAdd ignored -> anyNullable(expression, input);
        };
    }

    private static boolean anyNullable(Expr expression, TableSchema input) {
        for (Expr child : expression.children()) {
            if (nullable(child, input)) {
                return true;
            }
        }
        return false;
    }
}

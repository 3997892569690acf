package dev.columba.core.expr;

/** The comparisons of {@link Expr.Comparison}. All but the DISTINCT forms yield NULL when an operand is NULL. */
public enum ComparisonOperator {
    EQUAL("="),
    NOT_EQUAL("<>"),
    LESS_THAN("<"),
    LESS_THAN_OR_EQUAL("<="),
    GREATER_THAN(">"),
    GREATER_THAN_OR_EQUAL(">="),
    /** NULL-safe inequality: never NULL; two NULLs are not distinct. */
    IS_DISTINCT_FROM("IS DISTINCT FROM"),
    /** NULL-safe equality: never NULL; two NULLs are not distinct. */
    IS_NOT_DISTINCT_FROM("IS NOT DISTINCT FROM");

    private final String symbol;

    ComparisonOperator(String symbol) {
        this.symbol = symbol;
    }

    public String symbol() {
        return symbol;
    }

    /** Whether NULL operands are compared rather than making the result NULL. */
    public boolean nullSafe() {
        return this == IS_DISTINCT_FROM || this == IS_NOT_DISTINCT_FROM;
    }

    /** The outcome for two non-NULL operands whose order is {@code comparison} (negative, zero, positive). */
    public boolean test(int comparison) {
        return switch (this) {
            case EQUAL, IS_NOT_DISTINCT_FROM -> comparison == 0;
            case NOT_EQUAL, IS_DISTINCT_FROM -> comparison != 0;
            case LESS_THAN -> comparison < 0;
            case LESS_THAN_OR_EQUAL -> comparison <= 0;
            case GREATER_THAN -> comparison > 0;
            case GREATER_THAN_OR_EQUAL -> comparison >= 0;
        };
    }
}

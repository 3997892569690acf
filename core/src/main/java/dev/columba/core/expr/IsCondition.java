package dev.columba.core.expr;

/** The tests of {@link Expr.Is}: never NULL themselves. The TRUE/FALSE forms apply to BOOLEAN operands. */
public enum IsCondition {
    NULL("IS NULL"),
    NOT_NULL("IS NOT NULL"),
    TRUE("IS TRUE"),
    NOT_TRUE("IS NOT TRUE"),
    FALSE("IS FALSE"),
    NOT_FALSE("IS NOT FALSE");

    private final String sql;

    IsCondition(String sql) {
        this.sql = sql;
    }

    public String sql() {
        return sql;
    }

    /** The outcome for an operand that is NULL ({@code value} null) or the given boolean. */
    public boolean test(Boolean value) {
        return switch (this) {
            case NULL -> value == null;
            case NOT_NULL -> value != null;
            case TRUE -> value != null && value;
            case NOT_TRUE -> value == null || !value;
            case FALSE -> value != null && !value;
            case NOT_FALSE -> value == null || value;
        };
    }
}

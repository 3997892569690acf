package dev.columba.core.expr;

/** The binary arithmetic of {@link Expr.Arithmetic}; MOD is {@link #MODULO}. */
public enum ArithmeticOperator {
    ADD("+"),
    SUBTRACT("-"),
    MULTIPLY("*"),
    /** Integer division truncates toward zero; division by zero is an error (SQLSTATE 22012). */
    DIVIDE("/"),
    /** The remainder takes the sign of the dividend; modulo zero is an error (SQLSTATE 22012). */
    MODULO("%");

    private final String symbol;

    ArithmeticOperator(String symbol) {
        this.symbol = symbol;
    }

    public String symbol() {
        return symbol;
    }
}

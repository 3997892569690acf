package dev.columba.core.expr;

/**
 * How an expression (and so the operator evaluating it) runs: {@link #BATCH} when every node has
 * a vectorized kernel, {@link #ROW} when at least one node falls back to row-at-a-time
 * evaluation on Java values. {@code EXPLAIN} prints it; it is never guessed.
 */
public enum ExecutionMode {
    BATCH,
    ROW;

    /** ROW if either is ROW. */
    public ExecutionMode and(ExecutionMode other) {
        return this == ROW || other == ROW ? ROW : BATCH;
    }
}

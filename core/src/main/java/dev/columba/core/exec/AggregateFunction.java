package dev.columba.core.exec;

/** The aggregate functions of {@link AggregateCall}; COUNT without an argument is COUNT(*). */
public enum AggregateFunction {
    /** Rows (COUNT(*)) or non-NULL values; 0 over no rows; BIGINT. */
    COUNT,
    /** Sum of the non-NULL values; NULL over none. Exact for integers and decimals. */
    SUM,
    /** Mean of the non-NULL values; NULL over none. */
    AVG,
    MIN,
    MAX
}

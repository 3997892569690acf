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
    MAX,
    /**
     * The non-NULL values (VARCHAR or CHAR) joined by the call's separator in the order they
     * arrive; NULL over none. SQL Server's STRING_AGG and the standard's LISTAGG: an order the
     * query asks for (WITHIN GROUP) is the planner's to give, by sorting the input.
     */
    STRING_AGG
}

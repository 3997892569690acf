package dev.columba.core.expr;

/**
 * The fields {@link Expr.Extract} takes from a DATE or TIMESTAMP, all as BIGINT. Time fields of a
 * DATE are 0; SECOND is whole seconds.
 */
public enum DateTimeField {
    YEAR,
    /** 1 to 4. */
    QUARTER,
    /** 1 to 12. */
    MONTH,
    /** Day of the month, 1 to 31. */
    DAY,
    /** Day of the week as Calcite numbers it: Sunday 1 to Saturday 7. */
    DOW,
    /** Day of the year, 1 to 366. */
    DOY,
    HOUR,
    MINUTE,
    SECOND
}

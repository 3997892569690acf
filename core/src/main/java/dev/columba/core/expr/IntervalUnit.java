package dev.columba.core.expr;

/**
 * The unit of the amount {@link Expr.DateAdd} adds: an interval is an integer number of one unit
 * (Calcite's year-month intervals are MONTHs, its day-time intervals MILLISECONDs). Month-based
 * units keep the day of the month, clamped to the month's last day.
 */
public enum IntervalUnit {
    YEAR(0, 12),
    QUARTER(0, 3),
    MONTH(0, 1),
    WEEK(7L * 86_400_000_000L, 0),
    DAY(86_400_000_000L, 0),
    HOUR(3_600_000_000L, 0),
    MINUTE(60_000_000L, 0),
    SECOND(1_000_000L, 0),
    MILLISECOND(1_000L, 0),
    MICROSECOND(1L, 0);

    private final long micros;
    private final int months;

    IntervalUnit(long micros, int months) {
        this.micros = micros;
        this.months = months;
    }

    /** Microseconds in one unit, or 0 for month-based units. */
    public long micros() {
        return micros;
    }

    /** Months in one unit, or 0 for fixed-length units. */
    public int months() {
        return months;
    }

    public boolean monthBased() {
        return months != 0;
    }

    /** Whether a DATE can move by this unit and stay a DATE (whole days or months). */
    public boolean wholeDays() {
        return monthBased() || this == DAY || this == WEEK;
    }
}

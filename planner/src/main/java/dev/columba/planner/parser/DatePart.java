package dev.columba.planner.parser;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The first argument of SQL Server's DATEADD and DATEDIFF, with SQL Server's names and
 * abbreviations ({@code day}, {@code dd}, {@code d}). DATEADD adds whole units; DATEDIFF counts the
 * boundaries of the unit crossed between its two arguments. DAYOFYEAR and WEEKDAY move and count
 * as days, as in SQL Server.
 */
public enum DatePart {
    YEAR(TimeUnit.YEAR, "year", "yy", "yyyy"),
    QUARTER(TimeUnit.QUARTER, "quarter", "qq", "q"),
    MONTH(TimeUnit.MONTH, "month", "mm", "m"),
    DAYOFYEAR(TimeUnit.DAY, "dayofyear", "dy", "y"),
    DAY(TimeUnit.DAY, "day", "dd", "d"),
    WEEK(TimeUnit.WEEK, "week", "wk", "ww"),
    WEEKDAY(TimeUnit.DAY, "weekday", "dw", "w"),
    HOUR(TimeUnit.HOUR, "hour", "hh"),
    MINUTE(TimeUnit.MINUTE, "minute", "mi", "n"),
    SECOND(TimeUnit.SECOND, "second", "ss", "s"),
    MILLISECOND(TimeUnit.MILLISECOND, "millisecond", "ms"),
    MICROSECOND(TimeUnit.MICROSECOND, "microsecond", "mcs");

    private static final Map<String, DatePart> BY_NAME = Stream.of(values())
            .flatMap(part -> Stream.of(part.names).map(name -> Map.entry(name, part)))
            .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, Map.Entry::getValue));

    private final TimeUnit unit;
    private final String[] names;

    DatePart(TimeUnit unit, String... names) {
        this.unit = unit;
        this.names = names;
    }

    /** The part called {@code name} (any case), if SQL Server has one of that name. */
    public static Optional<DatePart> named(String name) {
        return Optional.ofNullable(BY_NAME.get(name.toLowerCase(Locale.ROOT)));
    }

    /** The unit the part moves and counts by: DAY for DAYOFYEAR and WEEKDAY. */
    public TimeUnit unit() {
        return unit;
    }

    /** Whether the part is shorter than a day (HOUR and below), so that only a TIMESTAMP can move by it. */
    public boolean belowDay() {
        return switch (unit) {
            case HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND -> true;
            default -> false;
        };
    }

    /** The part as TIMESTAMPADD's first operand. */
    public SqlIntervalQualifier qualifier(SqlParserPos position) {
        return new SqlIntervalQualifier(unit, null, position);
    }
}

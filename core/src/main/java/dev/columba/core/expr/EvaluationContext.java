package dev.columba.core.expr;

import java.time.Clock;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * What evaluating an expression needs beyond its input row: the statement's start time on the
 * query clock (in the session's time zone, to the microsecond), so CURRENT_DATE and
 * CURRENT_TIMESTAMP are the same for every row of a statement and tests can fix them.
 */
public record EvaluationContext(LocalDateTime statementTime) {
    public EvaluationContext {
        Objects.requireNonNull(statementTime, "statementTime");
        statementTime = statementTime.truncatedTo(ChronoUnit.MICROS);
    }

    /** The context of a statement starting now on {@code clock}. */
    public static EvaluationContext startingNow(Clock clock) {
        return new EvaluationContext(LocalDateTime.now(clock));
    }
}

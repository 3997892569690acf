package dev.columba.core.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/** The integer calendar the date kernels use agrees with java.time on every day SQL allows. */
class CalendarArithmeticTest {
    @Test
    void civilDateOfEveryDayFromYear1To9999MatchesJavaTime() {
        for (long day = DateTimeKernels.MIN_DAY; day <= DateTimeKernels.MAX_DAY; day++) {
            LocalDate date = LocalDate.ofEpochDay(day);
            if (DateTimeKernels.year(day) != date.getYear() || DateTimeKernels.month(day) != date.getMonthValue()
                    || DateTimeKernels.dayOfMonth(day) != date.getDayOfMonth()
                    || DateTimeKernels.daysOf(date.getYear(), date.getMonthValue(), date.getDayOfMonth()) != day) {
                assertEquals(date.toString(), DateTimeKernels.year(day) + "-" + DateTimeKernels.month(day) + "-"
                        + DateTimeKernels.dayOfMonth(day), "day " + day);
            }
        }
        assertEquals(LocalDate.of(1, 1, 1).toEpochDay(), DateTimeKernels.MIN_DAY);
        assertEquals(LocalDate.of(9999, 12, 31).toEpochDay(), DateTimeKernels.MAX_DAY);
    }
}

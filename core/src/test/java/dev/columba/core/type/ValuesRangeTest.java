package dev.columba.core.type;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

/** Dates and timestamps that Java can represent but the stored encodings cannot. */
class ValuesRangeTest {

    @Test
    void datesBeyondThirtyTwoBitsOfDaysAreRefusedByName() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> Values.canonical(SqlType.DATE, LocalDate.MAX));
        assertTrue(error.getMessage().contains("+999999999-12-31") && error.getMessage().contains("days"),
                error.getMessage());
        LocalDate farButStored = LocalDate.of(5_000_000, 1, 1);
        assertEquals(farButStored, Values.daysToDate(Values.dateToDays(
                (LocalDate) Values.canonical(SqlType.DATE, farButStored))));
    }

    @Test
    void timestampsBeyondSixtyFourBitsOfMicrosecondsAreRefusedByName() {
        for (LocalDateTime extreme : new LocalDateTime[] {LocalDateTime.MIN, LocalDateTime.MAX,
                LocalDateTime.of(-300_000, 1, 1, 0, 0)}) {
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                    () -> Values.canonical(SqlType.TIMESTAMP, extreme));
            assertTrue(error.getMessage().contains("microseconds"), error.getMessage());
        }
        LocalDateTime farButStored = LocalDateTime.of(-290_000, 1, 1, 0, 0, 0, 123_456_000);
        assertEquals(farButStored, Values.microsToTimestamp(Values.timestampToMicros(
                (LocalDateTime) Values.canonical(SqlType.TIMESTAMP, farButStored))));
    }
}

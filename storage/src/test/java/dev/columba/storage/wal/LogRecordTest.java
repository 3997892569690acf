package dev.columba.storage.wal;

import static dev.columba.storage.wal.LogFixtures.range;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class LogRecordTest {

    @Test
    void pageImageMustBeExactlyOnePage() {
        assertInvalid(() -> new LogRecord.PageImage(1, new byte[8191]), "must be 8192 bytes, got 8191");
        assertInvalid(() -> new LogRecord.PageImage(1, null), "got null");
        assertInvalid(() -> new LogRecord.PageImage(-1, new byte[8192]), "page id must not be negative, got -1");
    }

    @Test
    void deltaRangesMustBeSortedDisjointAndInsideThePage() {
        assertInvalid(() -> new LogRecord.PageDelta(3, List.of()), "page delta of page 3 has no ranges");
        assertInvalid(() -> new LogRecord.PageDelta(3, List.of(range(10, 1, 2), range(11, 3))),
                "range 1 at offset 11 starts before the end of the previous range (12)");
        assertInvalid(() -> new LogRecord.PageDelta(3, List.of(range(20, 1), range(10, 2))),
                "range 1 at offset 10 starts before the end of the previous range (21)");
        assertInvalid(() -> range(8191, 1, 2), "delta range of 2 bytes at offset 8191 does not fit");
        assertInvalid(() -> range(-1, 1), "at offset -1 does not fit");
        assertInvalid(() -> range(5), "delta range at offset 5 is empty");

        LogRecord.PageDelta touching = new LogRecord.PageDelta(3, List.of(range(0, 1), range(1, 2), range(8191, 3)));
        assertEquals(3, touching.ranges().size());
    }

    @Test
    void commitAndCheckpointRejectNegativeValues() {
        assertInvalid(() -> new LogRecord.Commit(-5, 0), "transaction id must not be negative, got -5");
        assertInvalid(() -> new LogRecord.Commit(5, -1), "commit time must not be negative, got -1");
        assertInvalid(() -> new LogRecord.Checkpoint(-2), "redo LSN must not be negative, got -2");
    }

    @Test
    void equalityComparesArrayContents() {
        assertEquals(LogFixtures.image(4, 99), LogFixtures.image(4, 99));
        assertEquals(LogFixtures.image(4, 99).hashCode(), LogFixtures.image(4, 99).hashCode());
        assertNotEquals(LogFixtures.image(4, 99), LogFixtures.image(4, 98));
        assertNotEquals(LogFixtures.image(4, 99), LogFixtures.image(5, 99));
        assertEquals(new LogRecord.PageDelta(1, List.of(range(7, 1, 2))), new LogRecord.PageDelta(1, List.of(range(7, 1, 2))));
        assertNotEquals(new LogRecord.PageDelta(1, List.of(range(7, 1, 2))), new LogRecord.PageDelta(1, List.of(range(7, 1, 3))));
        assertTrue(LogFixtures.image(4, 99).toString().startsWith("PageImage[pageId=4, image=8192 bytes"));
    }

    private static void assertInvalid(Executable construction, String messagePart) {
        ColumbaException error = assertThrows(ColumbaException.class, construction);
        assertEquals(ErrorCode.INVALID_ARGUMENT, error.errorCode());
        assertTrue(error.getMessage().contains(messagePart), error.getMessage());
    }
}

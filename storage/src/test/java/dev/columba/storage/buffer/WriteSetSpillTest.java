package dev.columba.storage.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.file.DataFile;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write set with a budget of 16 frames over a 64-frame pool: copies beyond the budget go to the
 * spill file, a pinned copy never does, a spilled copy reads back as it was written, and rollback
 * and install leave no private frame and an empty spill file.
 */
class WriteSetSpillTest {
    private static final int BUDGET = 16;
    /** Pages far from the file header and allocation maps, so that nothing else uses them. */
    private static final long FIRST_PAGE = 1_000;

    @TempDir
    Path directory;

    private DataFile file;
    private BufferPool pool;
    private SpillFile spill;
    private final IoCounters counters = new IoCounters();

    @BeforeEach
    void open() {
        file = DataFile.create(NativeFilesFacade.INSTANCE, directory.resolve("data.col"), UUID.randomUUID(), 0, false);
        file.ensureExtent(FIRST_PAGE / 8 + 20);
        pool = new BufferPool(file, 64, 2);
        spill = new SpillFile(NativeFilesFacade.INSTANCE, directory.resolve("temp").resolve(SpillFile.FILE_NAME));
    }

    @AfterEach
    void close() {
        spill.close();
        pool.close();
        file.close();
    }

    /** Creates page {@code pageId} with a recognizable body. */
    private static void fill(WriteSet writes, long pageId, int version) {
        try (PageRef ref = writes.create(pageId)) {
            Page.format(ref.page(), pageId, PageType.HEAP, 7, 0);
            ref.page().set(ValueLayout.JAVA_LONG_UNALIGNED, 4_000, pageId * 31 + version);
        }
    }

    private static long body(MemorySegment page) {
        return page.get(ValueLayout.JAVA_LONG_UNALIGNED, 4_000);
    }

    @Test
    void copiesBeyondTheBudgetSpillAndReadBackAsWritten() {
        try (WriteSet writes = new WriteSet(pool, BUDGET, counters, spill)) {
            for (long pageId = FIRST_PAGE; pageId < FIRST_PAGE + 100; pageId++) {
                fill(writes, pageId, 1);
            }
            assertTrue(writes.spilledPages() >= 100 - BUDGET, "spilled " + writes.spilledPages());
            assertTrue(pool.privatePages() <= BUDGET, "private frames " + pool.privatePages());
            for (long pageId = FIRST_PAGE; pageId < FIRST_PAGE + 100; pageId++) {
                try (PageRef ref = writes.read(pageId, Access.RANDOM, counters)) {
                    assertEquals(pageId * 31 + 1, body(ref.page()), "page " + pageId);
                    assertFalse(ref.writable(), "a read of a private copy is read-only");
                }
            }
            // Changed after being read back: spilled again to the same slot, and read back changed.
            for (long pageId = FIRST_PAGE; pageId < FIRST_PAGE + 100; pageId += 3) {
                try (PageRef ref = writes.modify(pageId, counters)) {
                    ref.page().set(ValueLayout.JAVA_LONG_UNALIGNED, 4_000, pageId * 31 + 2);
                }
            }
            for (long pageId = FIRST_PAGE; pageId < FIRST_PAGE + 100; pageId++) {
                try (PageRef ref = writes.read(pageId, Access.RANDOM, counters)) {
                    long version = (pageId - FIRST_PAGE) % 3 == 0 ? 2 : 1;
                    assertEquals(pageId * 31 + version, body(ref.page()), "page " + pageId);
                }
            }
            assertEquals(100, spill.slotCount(), "one slot per page, however often it is spilled");
        }
        assertEquals(0, pool.privatePages());
        assertEquals(0, spill.slotCount());
        assertSpillFileEmpty();
        // Rolled back: the committed pages are still the zeroed pages of a new file.
        try (PageRef ref = pool.read(FIRST_PAGE, Access.RANDOM, counters)) {
            assertEquals(0, body(ref.page()));
        }
    }

    @Test
    void aPinnedCopyStaysInMemoryAndInstallPublishesSpilledCopies() {
        long[] lsns = new long[60];
        try (WriteSet writes = new WriteSet(pool, BUDGET, counters, spill)) {
            fill(writes, FIRST_PAGE, 1);
            try (PageRef pinned = writes.modify(FIRST_PAGE, counters)) {
                for (long pageId = FIRST_PAGE + 1; pageId < FIRST_PAGE + 60; pageId++) {
                    fill(writes, pageId, 1);
                }
                assertTrue(writes.spilledPages() > 0);
                // Written through the reference held all along: it must still be the page's copy.
                pinned.page().set(ValueLayout.JAVA_LONG_UNALIGNED, 4_000, 99);
            }
            assertEquals(60, writes.entries().size());
            Arrays.fill(lsns, 5);
            writes.install(lsns);
        }
        assertEquals(0, pool.privatePages());
        assertSpillFileEmpty();
        for (long pageId = FIRST_PAGE; pageId < FIRST_PAGE + 60; pageId++) {
            try (PageRef ref = pool.read(pageId, Access.RANDOM, counters)) {
                assertEquals(pageId == FIRST_PAGE ? 99 : pageId * 31 + 1, body(ref.page()), "page " + pageId);
                assertEquals(5, Page.lsn(ref.page()));
            }
        }
    }

    @Test
    void withEveryCopyPinnedOrWithoutASpillFileTheBudgetIsAHardLimit() {
        PageRef[] held = new PageRef[BUDGET];
        try (WriteSet writes = new WriteSet(pool, BUDGET, counters, spill)) {
            for (int index = 0; index < BUDGET; index++) {
                held[index] = writes.create(FIRST_PAGE + index);
            }
            ColumbaException full = assertThrows(ColumbaException.class, () -> writes.create(FIRST_PAGE + BUDGET));
            assertEquals(ErrorCode.TRANSACTION_TOO_LARGE, full.errorCode());
            for (PageRef ref : held) {
                ref.close();
            }
            fill(writes, FIRST_PAGE + BUDGET, 1);
        }
        try (WriteSet writes = new WriteSet(pool, BUDGET, counters)) {
            for (int index = 0; index < BUDGET; index++) {
                fill(writes, FIRST_PAGE + index, 1);
            }
            ColumbaException full = assertThrows(ColumbaException.class, () -> fill(writes, FIRST_PAGE + BUDGET, 1));
            assertEquals(ErrorCode.TRANSACTION_TOO_LARGE, full.errorCode());
            assertTrue(full.getMessage().contains("transaction_max_buffer_percent"), full.getMessage());
        }
        assertEquals(0, pool.privatePages());
    }

    private void assertSpillFileEmpty() {
        try {
            assertTrue(!Files.exists(spill.path()) || Files.size(spill.path()) == 0, "spill file holds data");
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}

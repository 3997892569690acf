package dev.columba.core.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Waits counted once in a statement's counters and once in the database's above them, snapshots, differences and the top waits. */
class WaitCountersTest {
    @Test
    void aStatementsWaitCountsInTheDatabasesAsWell() {
        WaitCounters database = new WaitCounters();
        WaitCounters statement = new WaitCounters(database);
        statement.record(WaitType.CXPACKET, 1_500_000);
        statement.record(WaitType.CXPACKET, 500_000);
        database.record(WaitType.LATCH_EX, 10);
        assertEquals(new WaitStats.Wait(WaitType.CXPACKET, 2, 2_000_000), statement.snapshot().get(WaitType.CXPACKET));
        assertEquals(0, statement.snapshot().get(WaitType.LATCH_EX).count(), "the database's own wait is not the statement's");
        assertEquals(new WaitStats.Wait(WaitType.CXPACKET, 2, 2_000_000), database.snapshot().get(WaitType.CXPACKET));
        assertEquals(2.0, database.snapshot().get(WaitType.CXPACKET).millis());
    }

    @Test
    void aComponentsWaitCountsOnceWhetherOrNotTheStatementReportsToIt() {
        WaitCounters pool = new WaitCounters();
        WaitCounters reporting = new WaitCounters(pool);
        WaitCounters.record(WaitType.PAGEIOLATCH_SH, 7, pool, reporting);
        assertEquals(1, pool.snapshot().get(WaitType.PAGEIOLATCH_SH).count());
        assertEquals(1, reporting.snapshot().get(WaitType.PAGEIOLATCH_SH).count());

        WaitCounters elsewhere = new WaitCounters();
        WaitCounters.record(WaitType.PAGEIOLATCH_SH, 7, pool, elsewhere);
        assertEquals(2, pool.snapshot().get(WaitType.PAGEIOLATCH_SH).count());
        assertEquals(1, elsewhere.snapshot().get(WaitType.PAGEIOLATCH_SH).count());

        WaitCounters.record(WaitType.PAGEIOLATCH_SH, 7, pool, null);
        assertEquals(3, pool.snapshot().get(WaitType.PAGEIOLATCH_SH).count());
        assertEquals(21, pool.snapshot().get(WaitType.PAGEIOLATCH_SH).nanos());
    }

    @Test
    void theTopWaitsAreTheLongestOnesThatHappenedAndDifferencesSubtract() {
        WaitCounters counters = new WaitCounters();
        WaitStats before = counters.snapshot();
        assertEquals(List.of(), before.top(3), "no wait, no top wait");
        counters.record(WaitType.HTBUILD, 101);
        counters.record(WaitType.CXCONSUMER, 5_000);
        counters.record(WaitType.LATCH_EX, 100);
        counters.record(WaitType.LATCH_EX, 1);
        WaitStats after = counters.snapshot();
        assertEquals(List.of(WaitType.CXCONSUMER, WaitType.LATCH_EX), after.top(2).stream().map(WaitStats.Wait::type).toList());
        assertEquals(List.of(WaitType.CXCONSUMER, WaitType.LATCH_EX, WaitType.HTBUILD),
                after.top(5).stream().map(WaitStats.Wait::type).toList(), "by time, then (101 ns each) by count");
        counters.record(WaitType.HTBUILD, 50);
        WaitStats gained = counters.snapshot().minus(after);
        assertEquals(new WaitStats.Wait(WaitType.HTBUILD, 1, 50), gained.get(WaitType.HTBUILD));
        assertEquals(0, gained.get(WaitType.CXCONSUMER).count());
        assertEquals(WaitStats.NONE, new WaitCounters().snapshot());
    }

    @Test
    void aSnapshotHasOneWaitPerTypeInOrder() {
        assertThrows(IllegalArgumentException.class, () -> new WaitStats(List.of(new WaitStats.Wait(WaitType.LATCH_EX, 0, 0))));
        assertThrows(IllegalArgumentException.class, () -> new WaitStats.Wait(WaitType.LATCH_EX, -1, 0));
    }
}

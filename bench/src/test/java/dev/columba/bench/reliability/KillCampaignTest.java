package dev.columba.bench.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The short mode of the kill -9 campaign inside {@code ./columba test}: three real child JVMs killed
 * with SIGKILL on one database, each reopen checked against the units the child acknowledged, and
 * flips in crashed copies, every kind of file and data page in turn ({@link CrashFlipTargets});
 * no acknowledged row lost, no transaction half there, no flip silently used, no detected damage
 * destroyed.
 */
class KillCampaignTest {
    @TempDir
    Path directory;

    @Test
    void killedChildrenLoseNoAcknowledgedRowAndFlipsAfterACrashAreDetectedOrHarmless() throws IOException {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int flips = 2 * CrashFlipTargets.KINDS.size();
        KillCampaign.Result result = new KillCampaign(20261127L, directory, new PrintStream(log, true, StandardCharsets.UTF_8))
                .firstKillAfterUnits(60).run(3, flips);
        String report = ReliabilityCommand.report(result);
        System.out.print(report);
        assertEquals(List.of(), result.failures(), report + log.toString(StandardCharsets.UTF_8));
        assertEquals(3, result.reopensOk(), report);
        assertTrue(result.acknowledged() > 0, "some units were acknowledged before the kills: " + report);
        assertEquals(flips, result.flipCount(), report);
        assertEquals(flips, result.flipsPreserved() + result.flipsOverwritten(), report);
        // The first child did 60 units before its kill: both tables have rows, and the first crash's
        // flips reach the kinds of a working database whatever the later kills hit.
        for (String kind : List.of(CrashFlipTargets.WAL, CrashFlipTargets.CONTROL, CrashFlipTargets.CATALOG,
                CrashFlipTargets.TABLE_LEAF, CrashFlipTargets.COLUMNSTORE_METADATA, CrashFlipTargets.BOOT)) {
            assertTrue(result.flipsByKind().containsKey(kind), kind + " was flipped: " + report);
        }
    }

    /**
     * Each workload of the campaign apart, two kills each (the first once the child has acknowledged
     * a few units, the second at a random moment): the rowstore alone, the columnstore with its tuple
     * mover, checkpoints, and transactions larger than half a 4 MB buffer pool (which spill). The
     * full campaign runs 100 kills per workload (`columba bench reliability --workload all`).
     */
    @ParameterizedTest
    @EnumSource(value = KillWorkload.Kind.class, names = {"ROWSTORE", "COLUMNSTORE", "CHECKPOINT", "LARGE"})
    void eachWorkloadKilledLosesNoAcknowledgedRow(KillWorkload.Kind workload) throws IOException {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int unitsFirst = workload == KillWorkload.Kind.LARGE ? 3 : 30;
        // The rowstore workload's database has heap and overflow pages: flips after its first crash reach them.
        // The checkpoint workload's has a filegroup's files: flips reach data/files.properties.
        int flips = workload == KillWorkload.Kind.ROWSTORE || workload == KillWorkload.Kind.CHECKPOINT
                ? CrashFlipTargets.KINDS.size() : 0;
        KillCampaign.Result result = new KillCampaign(20261130L, directory, new PrintStream(log, true, StandardCharsets.UTF_8))
                .workload(workload).firstKillAfterUnits(unitsFirst).run(2, flips);
        String report = ReliabilityCommand.report(result);
        System.out.print(report);
        assertEquals(List.of(), result.failures(), report + log.toString(StandardCharsets.UTF_8));
        assertEquals(2, result.reopensOk(), report);
        assertTrue(result.acknowledged() >= unitsFirst, "the first child acknowledged its units before its kill: " + report);
        if (workload == KillWorkload.Kind.CHECKPOINT) {
            assertEquals(flips, result.flipsPreserved() + result.flipsOverwritten(), report);
            assertTrue(result.flipsByKind().containsKey(CrashFlipTargets.FILE_MANIFEST), "files.properties was flipped: " + report);
            // The rowstore table's pages are only in the filegroup's two files: flips reach them there.
            assertTrue(result.flipsByKind().containsKey(CrashFlipTargets.TABLE_LEAF), "a leaf in a filegroup file was flipped: " + report);
        }
        if (workload == KillWorkload.Kind.ROWSTORE) {
            assertEquals(flips, result.flipsPreserved() + result.flipsOverwritten(), report);
            for (String kind : List.of(CrashFlipTargets.HEAP, CrashFlipTargets.OVERFLOW, CrashFlipTargets.TABLE_LEAF)) {
                assertTrue(result.flipsByKind().containsKey(kind), kind + " was flipped: " + report);
            }
        }
        if (workload == KillWorkload.Kind.LARGE) {
            // Larger than half the pool: the first child's transactions spilled before it was killed.
            assertTrue(result.childrenSpilled() >= 1 && result.spilledPages() > 0, report);
        }
    }
}

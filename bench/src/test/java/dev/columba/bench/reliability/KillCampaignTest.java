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
}

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
 * The short mode of the kill -9 campaign inside {@code ./columba test}: four real child JVMs killed
 * with SIGKILL on one database, each reopen checked against the units the child acknowledged, and
 * four flips in the log of crashed copies; no acknowledged row lost, no transaction half there, no
 * damaged file destroyed.
 */
class KillCampaignTest {
    @TempDir
    Path directory;

    @Test
    void killedChildrenLoseNoAcknowledgedRowAndFlipsAfterACrashAreDetectedOrHarmless() throws IOException {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        KillCampaign.Result result = new KillCampaign(20261127L, directory, new PrintStream(log, true, StandardCharsets.UTF_8))
                .run(4, 4);
        String report = ReliabilityCommand.report(result);
        System.out.print(report);
        assertEquals(List.of(), result.failures(), report + log.toString(StandardCharsets.UTF_8));
        assertEquals(4, result.reopensOk(), report);
        assertTrue(result.acknowledged() > 0, "some units were acknowledged before the kills: " + report);
        assertEquals(4, result.flipCount(), report);
        assertEquals(4, result.flipsPreserved(), report);
    }
}

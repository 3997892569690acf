package dev.columba.bench.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The short mode of the byte-flip campaign inside {@code ./columba test}: two flips in each file of
 * a cleanly closed database, none of which gives a silently wrong answer, an internal error or a
 * hang, and whose damaged bytes stay where they were (or in {@code damaged/}) when detected.
 */
class FileDamageCampaignTest {
    @TempDir
    Path directory;

    @Test
    void flipsInEveryFileAreDetectedOrLeaveTheAnswersAsTheyWere() throws SQLException, IOException {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        FileDamageCampaign.Result result = new FileDamageCampaign(20261127L, directory,
                new PrintStream(log, true, StandardCharsets.UTF_8)).run(12);
        String report = ReliabilityCommand.report(result);
        System.out.print(report);
        assertEquals(List.of(), result.failures(), report + log.toString(StandardCharsets.UTF_8));
        long judged = result.byFileKind().values().stream().flatMap(counts -> counts.values().stream())
                .mapToLong(Long::longValue).sum();
        assertEquals(12, judged, report);
        assertTrue(result.byFileKind().keySet().containsAll(List.of("control", "data/*.data", "wal/*.wal",
                "columnstore/*.crg", "columnstore/*.cdict")), "every file kind was flipped: " + report);
        long detected = result.byFileKind().values().stream().map(Map::entrySet).flatMap(java.util.Set::stream)
                .filter(entry -> entry.getKey() == FileDamageCampaign.Outcome.DETECTED_NAMED
                        || entry.getKey() == FileDamageCampaign.Outcome.DETECTED)
                .mapToLong(Map.Entry::getValue).sum();
        assertTrue(detected > 0, "some flips are detected: " + report);
        assertEquals(detected, result.detected(), report);
        assertEquals(detected, result.preserved(), "every detected flip's damaged bytes are kept: " + report);
        assertTrue(report.contains("still there afterwards (the file untouched, or kept in `damaged/`): " + detected
                + " of " + detected), report);
    }

    @Test
    void fileKindsAreTheTopFolderAndTheExtension() {
        assertEquals("columnstore/*.crg", FileDamageCampaign.kind("columnstore/101/1.crg"));
        assertEquals("wal/*.wal", FileDamageCampaign.kind("wal/0000000000000000.wal"));
        assertEquals("control", FileDamageCampaign.kind("control"));
        assertEquals("*.properties", FileDamageCampaign.kind("columba.properties"));
    }
}

package dev.columba.cli.inspect;

import static dev.columba.cli.inspect.InspectFixture.inspect;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.cli.inspect.InspectFixture.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The write-ahead log: record listings, and the torn tails a crash in the middle of an append leaves. */
class InspectLogTest {
    @TempDir
    static Path pristine;
    static InspectFixture.Facts facts;
    /** The records of the healthy log as {@code --records} lists them: LSN, group end, type. */
    static List<Listed> records;

    @TempDir
    Path work;

    record Listed(long lsn, boolean groupEnd, String type) {
    }

    @BeforeAll
    static void createDatabase() throws Exception {
        facts = InspectFixture.createDatabase(pristine);
        Run run = inspect(pristine, "--records");
        assertEquals(Inspect.OK, run.exitCode(), run::toString);
        records = new ArrayList<>();
        for (String line : run.lines()) {
            String[] tokens = line.trim().split("\\s+");
            if (tokens.length > 2 && tokens[0].matches("\\d+") && (tokens[1].startsWith("PAGE_") || tokens[2].equals("COMMIT")
                    || tokens[2].equals("CHECKPOINT") || tokens[2].startsWith("PAGE_"))) {
                boolean groupEnd = tokens[1].equals("end");
                records.add(new Listed(Long.parseLong(tokens[0]), groupEnd, tokens[groupEnd ? 2 : 1]));
            }
        }
    }

    private static Path segment(Path database) {
        return database.resolve("wal").resolve("0000000000000000.wal");
    }

    private Path copy() throws IOException {
        return InspectFixture.copy(pristine, work.resolve("db"));
    }

    @Test
    void theListingHoldsEveryGroupAndEndsWhereTheFileEnds() throws Exception {
        // One group per transaction (pages, then the commit) and one per checkpoint.
        long groups = records.stream().filter(Listed::groupEnd).count();
        long commits = records.stream().filter(record -> record.type().equals("COMMIT")).count();
        long checkpoints = records.stream().filter(record -> record.type().equals("CHECKPOINT")).count();
        assertEquals(groups, commits + checkpoints);
        assertEquals(facts.transactionIds().size() + 1, commits, "the tables' transactions and the bootstrap");
        assertEquals("CHECKPOINT", records.getLast().type(), "closing checkpoints");
        Run run = inspect(segment(pristine));
        assertEquals(Inspect.OK, run.exitCode(), run::toString);
        long size = Files.size(segment(pristine));
        String[] row = run.linesWith("  0000000000000000.wal ").getFirst().trim().split("\\s+");
        assertEquals(List.of("0000000000000000.wal", "0", String.valueOf(size), String.valueOf(records.size()),
                String.valueOf(groups)), List.of(row).subList(0, 5), run::toString);
    }

    @Test
    void truncatedTailIsReportedAsTornAtTheCutRecord() throws Exception {
        Path database = copy();
        Path segment = segment(database);
        long size = Files.size(segment);
        InspectFixture.truncate(segment, size - 5);
        long checkpoint = records.getLast().lsn();

        Run run = inspect(segment, "--records");
        assertEquals(Inspect.DAMAGED, run.exitCode(), run::toString);
        String end = "  log end: torn at LSN " + checkpoint + ": " + (size - 5 - checkpoint) + " bytes from offset "
                + checkpoint + " of 0000000000000000.wal are not part of the log (record at offset " + checkpoint
                + " needs " + (size - checkpoint) + " bytes but the file has " + (size - 5 - checkpoint) + " left)";
        assertEquals(List.of(end), run.linesWith("  log end: "), run::toString);
        assertEquals(1, run.problemsStartingWith("write-ahead log segment " + segment + ": torn tail at offset "
                + checkpoint + " (LSN " + checkpoint + ")").size(), run::toString);
    }

    @Test
    void groupCutBeforeItsCommitIsTornWhereTheGroupStartsAndItsRecordsAreMarked() throws Exception {
        Path database = copy();
        Path segment = segment(database);
        // The last transaction's group: from the record after the previous group end to its commit.
        int commit = -1;
        for (int index = records.size() - 1; index >= 0 && commit < 0; index--) {
            if (records.get(index).type().equals("COMMIT")) {
                commit = index;
            }
        }
        int groupStart = commit;
        while (!records.get(groupStart - 1).groupEnd()) {
            groupStart--;
        }
        long startLsn = records.get(groupStart).lsn();
        InspectFixture.truncate(segment, records.get(commit).lsn() + 5);

        Run run = inspect(database, "--records");
        assertEquals(Inspect.DAMAGED, run.exitCode(), run::toString);
        assertEquals(1, run.linesWith("  log end: torn at LSN " + startLsn + ": ").size(), run::toString);
        assertEquals(1, run.linesWith("  (the last " + (commit - groupStart) + " records above belong to a group that "
                + "never ended: recovery discards them)").size(), run::toString);
        assertEquals(0, run.linesWith("transaction " + facts.transactionIds().getLast() + " committed").size(), run::toString);

        Run summary = inspect(database);
        assertEquals(Inspect.DAMAGED, summary.exitCode(), summary::toString);
        assertTrue(summary.problems().stream().anyMatch(problem -> problem.startsWith("the control file's redo LSN ")
                && problem.endsWith(" lies outside the log, which runs from 0 to " + startLsn + ": recovery cannot start there")),
                summary::toString);
    }

    @Test
    void recordWithABadChecksumEndsTheLogThere() throws Exception {
        Path database = copy();
        Path segment = segment(database);
        Listed commit = records.stream().filter(record -> record.type().equals("COMMIT")).toList().get(1);
        InspectFixture.flipByte(segment, commit.lsn() + 12);
        Run run = inspect(segment, "--records");
        assertEquals(Inspect.DAMAGED, run.exitCode(), run::toString);
        assertEquals(1, run.linesWith("  log end: torn at LSN ", "(record at offset " + commit.lsn() + " has CRC32C 0x")
                .size(), run::toString);
    }
}

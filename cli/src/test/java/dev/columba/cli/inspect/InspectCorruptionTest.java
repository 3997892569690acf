package dev.columba.cli.inspect;

import static dev.columba.cli.inspect.InspectFixture.inspect;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.cli.inspect.InspectFixture.Run;
import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged files: inspect reports each problem with its file, page or offset and values, keeps
 * dumping everything else, and exits with 1; a file that is no Columba file at all exits with 2.
 */
class InspectCorruptionTest {
    @TempDir
    static Path pristine;
    static InspectFixture.Facts facts;

    @TempDir
    Path work;

    @BeforeAll
    static void createDatabase() {
        facts = InspectFixture.createDatabase(pristine);
    }

    private Path copy() throws IOException {
        return InspectFixture.copy(pristine, work.resolve("db"));
    }

    private static Path dataFile(Path database) {
        return database.resolve("data").resolve("columba.data");
    }

    private static String pageLine(Run run, long pageId) {
        for (String line : run.lines()) {
            String trimmed = line.trim();
            if (trimmed.startsWith(pageId + " ") && (trimmed.contains(" OK ") || trimmed.contains(" BAD ")
                    || trimmed.contains("never written"))) {
                return line;
            }
        }
        throw new AssertionError("no line for page " + pageId + " in\n" + run);
    }

    @Test
    void flippedByteInALeafIsReportedAsABadChecksumWhileEveryOtherPageStillLists() throws Exception {
        Path database = copy();
        long leaf = facts.firstOrderLeaf();
        long offset = PageFormat.offsetOf(leaf);
        InspectFixture.flipByte(dataFile(database), offset + 5000);

        Run run = inspect(database, "--pages");
        assertEquals(Inspect.DAMAGED, run.exitCode(), run::toString);
        assertTrue(pageLine(run, leaf).contains(" BAD "), pageLine(run, leaf));
        assertTrue(pageLine(run, leaf + 1).contains(" OK "), pageLine(run, leaf + 1));
        long pages = Files.size(dataFile(database)) / PageFormat.PAGE_SIZE;
        assertEquals("  " + pages + " pages", run.linesWith(" pages").getLast(), run::toString);
        assertEquals(1, run.linesWith(" BAD ").size(), run::toString);
        assertEquals(1, run.problems().size(), run::toString);
        assertTrue(run.problems().getFirst().startsWith(dataFile(database) + " page " + leaf + " (offset " + offset
                + "): checksum BAD: stored 0x"), run::toString);
    }

    @Test
    void directorySummaryCountsTheBadPageAndThePageDumpStillDecodesIt() throws Exception {
        Path database = copy();
        long leaf = facts.firstOrderLeaf();
        InspectFixture.flipByte(dataFile(database), PageFormat.offsetOf(leaf) + 5000);
        long pages = Files.size(dataFile(database)) / PageFormat.PAGE_SIZE;

        Run summary = inspect(database);
        assertEquals(Inspect.DAMAGED, summary.exitCode(), summary::toString);
        assertEquals(1, summary.linesWith("checksums: " + pages + " pages read, 1 BAD").size(), summary::toString);
        assertEquals(1, summary.linesWith("  log end: clean at LSN").size(), "the log is still dumped\n" + summary);

        Run page = inspect(database, "--page", leaf);
        assertEquals(Inspect.DAMAGED, page.exitCode(), page::toString);
        assertEquals(1, page.linesWith("  checksum        BAD: stored 0x", ", computed 0x").size(), page::toString);
        assertEquals(1, page.linesWith("(1, 'customer-1', 0.25)").size(), "the cells are still decoded\n" + page);
    }

    @Test
    void damagedControlFileShowsItsFieldsAndTheBadChecksum() throws Exception {
        Path database = copy();
        InspectFixture.flipByte(database.resolve("control"), 40);
        Run run = inspect(database.resolve("control"));
        assertEquals(Inspect.DAMAGED, run.exitCode(), run::toString);
        assertEquals(1, run.linesWith("  redo LSN             ").size(), run::toString);
        assertEquals(List.of("control file " + database.resolve("control") + ": checksum BAD at offset 56: stored 0x"),
                run.problems().stream().map(problem -> problem.substring(0, problem.indexOf("0x") + 2)).toList(),
                run::toString);
    }

    /** A flipped byte that still parses is caught by the file's checksum line; every key is still listed. */
    @Test
    void damagedPropertiesFileListsItsKeysAndTheBadChecksum() throws Exception {
        Path database = copy();
        Path properties = database.resolve("columba.properties");
        String text = Files.readString(properties);
        InspectFixture.flipByte(properties, text.indexOf("page_size=8192") + "page_size=".length());
        Run run = inspect(properties);
        assertEquals(Inspect.DAMAGED, run.exitCode(), run::toString);
        assertEquals(1, run.linesWith("format_version", "= 3").size(), run::toString);
        assertEquals(1, run.linesWith("checksum", "= ").size(), run::toString);
        assertEquals(1, run.problems().size(), run::toString);
        assertTrue(run.problems().getFirst().startsWith(properties + " is corrupt: its checksum line"), run::toString);
    }

    /** The same for data/files.properties (manifest version 2): its keys listed, the bad checksum reported, in the file's dump and the directory's. */
    @Test
    void damagedFileManifestListsItsKeysAndTheBadChecksum() throws Exception {
        Path database = copy();
        try (java.sql.Connection connection = java.sql.DriverManager.getConnection("jdbc:columba:" + database);
             java.sql.Statement statement = connection.createStatement()) {
            statement.execute("ALTER DATABASE CURRENT ADD FILEGROUP fg");
            statement.execute("ALTER DATABASE CURRENT ADD FILE (NAME = f1, FILENAME = 'fg1.data') TO FILEGROUP fg");
        }
        Path manifest = database.resolve("data").resolve("files.properties");
        Run sound = inspect(manifest);
        assertEquals(Inspect.OK, sound.exitCode(), sound::toString);
        assertEquals(1, sound.linesWith("filegroup.1", "= fg").size(), sound::toString);
        String text = Files.readString(manifest);
        InspectFixture.flipByte(manifest, text.indexOf("filegroup.1=fg") + "filegroup.1=".length());
        for (Path target : List.of(manifest, database)) {
            Run run = inspect(target);
            assertEquals(Inspect.DAMAGED, run.exitCode(), run::toString);
            assertEquals(1, run.linesWith("format_version", "= 2").size(), run::toString);
            assertEquals(1, run.linesWith("file.1.path", "= fg1.data").size(), run::toString);
            assertEquals(1, run.problems().size(), run::toString);
            assertTrue(run.problems().getFirst().startsWith(manifest + " is corrupt: its checksum line"), run::toString);
        }
    }

    @Test
    void randomBytesAreRefusedWithAMessageNamingWhatWasExpected() throws Exception {
        Path file = work.resolve("random.bin");
        byte[] bytes = new byte[20_000];
        new Random(20261122).nextBytes(bytes);
        Files.write(file, bytes);
        Run run = inspect(file);
        assertEquals(Inspect.USAGE, run.exitCode(), run::toString);
        assertEquals("", run.out());
        assertTrue(run.err().startsWith("columba inspect: " + file + " is not a file columba inspect knows: its first bytes are "),
                run::toString);
        assertTrue(run.err().contains("expected a data file (CLMBDATA at offset 64), a log segment (CLMB-WAL)"), run::toString);
    }

    @Test
    void randomBytesNamedAsADataFileAreDumpedWithTheirDamage() throws Exception {
        Path file = work.resolve("columba.data");
        byte[] bytes = new byte[3 * PageFormat.PAGE_SIZE + 100];
        new Random(7).nextBytes(bytes);
        Files.write(file, bytes);
        for (String option : List.of("", "--pages", "--catalog")) {
            Run run = option.isEmpty() ? inspect(file) : inspect(file, option);
            assertEquals(Inspect.DAMAGED, run.exitCode(), run::toString);
            assertEquals(1, run.problemsStartingWith(file + ": magic at offset 64 is 0x").size(), run::toString);
            assertEquals(1, run.problemsStartingWith(file + " is " + bytes.length + " bytes long: 100 bytes after its last "
                    + "whole page").size(), run::toString);
        }
        Run page = inspect(file, "--page", 1, "--hex");
        assertEquals(Inspect.DAMAGED, page.exitCode(), page::toString);
        assertEquals(1, page.problemsStartingWith(file + " page 1 (offset 8192): checksum BAD").size(), page::toString);
        assertEquals(1, page.linesWith("hex dump of page 1").size(), page::toString);
    }

    /**
     * Cells damaged behind a valid checksum (a bug in a writer, not a bad disk) are reported per
     * slot and never stop the dump: random bytes over the slot array and cells of the clustered
     * leaf, the index leaf and the heap page, with the checksum stamped again.
     */
    @Test
    void damagedCellsBehindAValidChecksumAreReportedAndNeverStopTheDump() throws Exception {
        long seed = Long.getLong("inspect.seed", System.nanoTime());
        Random random = new Random(seed);
        Path database = copy();
        Path dataFile = dataFile(database);
        long heapPage = findHeapPage(inspect(database, "--pages", "--object", "events"));
        int damagedRuns = 0;
        for (long pageId : new long[] {facts.firstOrderLeaf(), facts.firstIndexLeaf(), heapPage}) {
            byte[] original = readPage(dataFile, pageId);
            for (int round = 0; round < 8; round++) {
                byte[] damaged = original.clone();
                for (int change = 0; change < 1 + random.nextInt(20); change++) {
                    // Mostly the slot array and header counts, sometimes cell bytes anywhere.
                    int offset = random.nextBoolean() ? PageFormat.SLOT_COUNT_OFFSET + random.nextInt(200)
                            : PageFormat.HEADER_SIZE + random.nextInt(PageFormat.USABLE_SIZE);
                    damaged[offset] = (byte) random.nextInt(256);
                }
                MemorySegment page = MemorySegment.ofArray(damaged);
                Page.updateChecksum(page);
                InspectFixture.overwrite(dataFile, PageFormat.offsetOf(pageId), page.toArray(ValueLayout.JAVA_BYTE));
                String context = "seed " + seed + " (replay with -Dinspect.seed=" + seed + "), page " + pageId + ", round " + round;
                Run run = inspect(database, "--page", pageId, "--hex");
                assertTrue(run.exitCode() == Inspect.OK || run.exitCode() == Inspect.DAMAGED, () -> context + "\n" + run);
                assertEquals("", run.err(), () -> context + "\n" + run);
                assertEquals(1, run.linesWith("hex dump of page " + pageId).size(), () -> context + "\n" + run);
                if (run.exitCode() == Inspect.DAMAGED) {
                    damagedRuns++;
                }
                Run listing = inspect(database, "--pages");
                assertTrue(listing.exitCode() == Inspect.OK || listing.exitCode() == Inspect.DAMAGED,
                        () -> context + "\n" + listing);
            }
            InspectFixture.overwrite(dataFile, PageFormat.offsetOf(pageId), original);
        }
        assertTrue(damagedRuns > 0, "seed " + seed + ": the damage was never noticed");
    }

    private static long findHeapPage(Run run) {
        for (String line : run.lines()) {
            if (line.contains(" HEAP ")) {
                return Long.parseLong(line.trim().split("\\s+")[0]);
            }
        }
        throw new AssertionError("no heap page in\n" + run);
    }

    private static byte[] readPage(Path file, long pageId) throws IOException {
        byte[] all = Files.readAllBytes(file);
        int from = (int) PageFormat.offsetOf(pageId);
        return Arrays.copyOfRange(all, from, from + PageFormat.PAGE_SIZE);
    }
}

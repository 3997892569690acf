package dev.columba.cli.inspect;

import static dev.columba.cli.inspect.InspectFixture.inspect;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.cli.inspect.InspectFixture.Run;
import dev.columba.storage.page.PageFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code columba inspect} on a healthy database: every view, compared with what storage says. */
class InspectDatabaseTest {
    @TempDir
    static Path directory;
    static InspectFixture.Facts facts;

    @BeforeAll
    static void createDatabase() {
        facts = InspectFixture.createDatabase(directory);
    }

    private static Path dataFile() {
        return directory.resolve("data").resolve("columba.data");
    }

    private static Path segment() {
        return directory.resolve("wal").resolve("0000000000000000.wal");
    }

    private static String[] tokens(String line) {
        return line.trim().split("\\s+");
    }

    @Test
    void directorySummaryNamesTheTablesAndCountsTheirPages() throws Exception {
        Run run = inspect(directory);
        assertEquals(Inspect.OK, run.exitCode(), run::toString);
        assertEquals("database " + directory, run.lines().getFirst());
        long size = Files.size(dataFile());
        assertEquals(1, run.linesWith("  size            " + size + " bytes: " + size / PageFormat.PAGE_SIZE + " pages in "
                + size / PageFormat.EXTENT_SIZE + " extents").size(), run::toString);
        Map<String, String> kinds = Map.of("orders", "clustered table", "orders_by_customer", "index", "events", "heap table");
        assertEquals(kinds.keySet(), facts.pagesByObject().keySet());
        for (Map.Entry<String, Integer> object : facts.pagesByObject().entrySet()) {
            List<String> lines = run.linesWith(" " + object.getKey() + " ", kinds.get(object.getKey()));
            assertEquals(1, lines.size(), () -> object.getKey() + " in\n" + run);
            String[] row = tokens(lines.getFirst());
            // object, name, kind (one or two words), pages, leaf, internal, heap, overflow, maps
            assertEquals(String.valueOf(object.getValue()), row[row.length - 6], () -> lines.getFirst() + " in\n" + run);
        }
        String[] events = tokens(run.linesWith(" events ", "heap table").getFirst());
        assertEquals(List.of("5", "0", "0", "1", "3", "1"), List.of(events).subList(events.length - 6, events.length),
                "events: one heap page, three overflow pages for the 20,000-byte note, one allocation map");
        assertEquals(1, run.linesWith("format_version", "= 3").size(), run::toString);
        assertEquals(1, run.linesWith("checksums: " + size / PageFormat.PAGE_SIZE + " pages read, 0 BAD").size(), run::toString);
        assertEquals(1, run.linesWith("  log end: clean at LSN " + Files.size(segment())).size(), run::toString);
        assertEquals("no problems found", run.lines().getLast());
    }

    @Test
    void pageOnAClusteredLeafDecodesItsKeysAndRows() throws Exception {
        Run run = inspect(directory, "--page", facts.firstOrderLeaf());
        assertEquals(Inspect.OK, run.exitCode(), run::toString);
        assertEquals(1, run.linesWith("  type            BTREE_LEAF (5)").size(), run::toString);
        assertEquals(1, run.linesWith("  object          ", " orders").size(), run::toString);
        for (int id = 1; id <= 3; id++) {
            String key = String.format("01 80 00 00 %02x", id);
            String row = "(" + id + ", 'customer-" + id + "', " + String.format("0.%02d", 25 * id) + ")";
            List<String> lines = run.linesWith("  " + key + "  (" + id + ")  ", row);
            assertEquals(1, lines.size(), () -> key + " and " + row + " in\n" + run);
            assertEquals(String.valueOf(id - 1), tokens(lines.getFirst())[0], "slot of key " + id);
        }
    }

    @Test
    void pageOnAnIndexLeafDecodesTheKeyAndTheClusteredKeyItPointsTo() throws Exception {
        Run run = inspect(directory, "--page", facts.firstIndexLeaf());
        assertEquals(Inspect.OK, run.exitCode(), run::toString);
        // The first entries are customer-0's rows: ids 97, 194, ... (id % 97 == 0).
        assertEquals(1, run.linesWith("('customer-0') -> (97)").size(), run::toString);
        assertEquals(1, run.linesWith("('customer-0') -> (194)").size(), run::toString);
    }

    @Test
    void catalogListsTablesAndIndexesWithTheirPages() throws Exception {
        Run run = inspect(directory, "--catalog");
        assertEquals(Inspect.OK, run.exitCode(), run::toString);
        assertEquals(1, run.linesWith("  table 100 orders").size(), run::toString);
        assertEquals(1, run.linesWith("    organization    clustered on (id), unique").size(), run::toString);
        assertEquals(1, run.linesWith("    columns         id INT NOT NULL, customer VARCHAR(40), amount DECIMAL(10,2)")
                .size(), run::toString);
        assertEquals(1, run.linesWith("  index 101 orders_by_customer on table 100 orders").size(), run::toString);
        assertEquals(1, run.linesWith("    key             (customer), not unique").size(), run::toString);
        assertEquals(1, run.linesWith("  table 102 events").size(), run::toString);
        assertEquals(1, run.linesWith("    organization    heap").size(), run::toString);
    }

    @Test
    void objectLimitsThePageListingToOneTableByNameOrId() throws Exception {
        for (String object : List.of("events", "102")) {
            Run run = inspect(directory, "--pages", "--object", object);
            assertEquals(Inspect.OK, run.exitCode(), run::toString);
            assertEquals(1, run.linesWith("pages of object 102 events").size(), run::toString);
            int pages = facts.pagesByObject().get("events");
            assertEquals("  " + pages + " pages", run.linesWith(" pages").getLast(), run::toString);
            assertEquals(pages, run.linesWith(" 102 events ", " OK ", "in use").size(), run::toString);
            assertEquals(3, run.linesWith(" OVERFLOW ").size(), run::toString);
        }
    }

    @Test
    void pageListingShowsEveryPageOfTheFile() throws Exception {
        Run run = inspect(directory, "--pages");
        assertEquals(Inspect.OK, run.exitCode(), run::toString);
        long pages = Files.size(dataFile()) / PageFormat.PAGE_SIZE;
        assertEquals("  " + pages + " pages", run.linesWith(" pages").getLast(), run::toString);
        assertTrue(run.lines().contains(
                "     0  FILE_HEADER            0 (database)                0             0      0      -  OK        system"),
                run::toString);
        assertEquals(0, run.linesWith(" BAD ").size(), run::toString);
    }

    @Test
    void logRecordsShowEachCommitAfterThePageRecordsOfItsTransaction() throws Exception {
        Run run = inspect(directory, "--records");
        assertEquals(Inspect.OK, run.exitCode(), run::toString);
        List<String> lines = run.lines();
        for (long transaction : facts.transactionIds()) {
            List<String> commits = run.linesWith(" COMMIT ", "transaction " + transaction + " committed at ");
            assertEquals(1, commits.size(), () -> "transaction " + transaction + " in\n" + run);
            String[] commit = tokens(commits.getFirst());
            assertEquals("end", commit[1], "a commit ends its group");
            String before = lines.get(lines.indexOf(commits.getFirst()) - 1);
            String[] page = tokens(before);
            assertTrue(page[1].equals("PAGE_IMAGE") || page[1].equals("PAGE_DELTA"), before);
            assertTrue(Long.parseLong(page[0]) < Long.parseLong(commit[0]), before);
        }
        assertEquals(1, run.linesWith("  log end: clean at LSN " + Files.size(segment())).size(), run::toString);
    }

    @Test
    void eachFileOfTheDirectoryIsRecognizedOnItsOwn() throws Exception {
        Run control = inspect(directory.resolve("control"));
        assertEquals(Inspect.OK, control.exitCode(), control::toString);
        assertEquals("control file " + directory.resolve("control"), control.lines().getFirst());
        assertEquals(1, control.linesWith("  checksum             0x", " OK").size(), control::toString);

        Run properties = inspect(directory.resolve("columba.properties"));
        assertEquals(Inspect.OK, properties.exitCode(), properties::toString);
        assertEquals(1, properties.linesWith("page_size", "= 8192").size(), properties::toString);

        Run data = inspect(dataFile());
        assertEquals(Inspect.OK, data.exitCode(), data::toString);
        assertEquals("data file " + dataFile(), data.lines().getFirst());
        assertEquals(1, data.linesWith("pages by object").size(), data::toString);

        Run segment = inspect(segment());
        assertEquals(Inspect.OK, segment.exitCode(), segment::toString);
        assertEquals("write-ahead log segment " + segment(), segment.lines().getFirst());

        Run log = inspect(directory.resolve("wal"));
        assertEquals(Inspect.OK, log.exitCode(), log::toString);
        assertEquals("write-ahead log " + directory.resolve("wal"), log.lines().getFirst());
    }
}

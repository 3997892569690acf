package dev.columba.cli.inspect;

import static dev.columba.cli.inspect.InspectFixture.inspect;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.cli.inspect.InspectFixture.Run;
import dev.columba.storage.page.PageFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Usage errors exit with 2 and a message naming the problem, before or instead of any dump. */
class InspectUsageTest {
    @TempDir
    static Path directory;

    @BeforeAll
    static void createDatabase() {
        InspectFixture.createDatabase(directory);
    }

    private static void assertUsage(Run run, String message) {
        assertEquals(Inspect.USAGE, run.exitCode(), run::toString);
        assertTrue(run.err().startsWith("columba inspect: " + message + "\n"), run::toString);
    }

    @Test
    void missingPathAndUnknownOptionsPrintTheUsage() throws Exception {
        Run none = inspect();
        assertUsage(none, "Missing required parameter: '<path>'");
        assertTrue(none.err().contains("Usage: columba inspect [-hV]"), none::toString);
        assertUsage(inspect(directory, "--frobnicate"), "Unknown option: '--frobnicate'");
        assertUsage(inspect(directory, "--page"), "Missing required parameter for option '--page' (N)");
        assertUsage(inspect(directory, "--page", "x"), "Invalid value for option '--page': 'x' is not a long");
        assertUsage(inspect(directory, "--page", "-3"), "--page needs a page number (0 or more), got -3");
        assertUsage(inspect(directory, "--hex"), "--hex goes with --page N");
        assertUsage(inspect(directory, directory), "Unmatched argument at index 2: '" + directory + "'");
    }

    @Test
    void pathsThatAreNotColumbaFilesAreNamed() throws Exception {
        assertUsage(inspect(directory.resolve("nothing-here")), directory.resolve("nothing-here") + " does not exist");
        assertUsage(inspect(directory.resolve("data")), directory.resolve("data") + " is a directory but not a Columba database"
                + " (no columba.properties, control or data/) nor a write-ahead log directory (no <16 hex digits>.wal files)");
    }

    @Test
    void optionsMustFitTheKindOfFile() throws Exception {
        Path dataFile = directory.resolve("data").resolve("columba.data");
        Path segment = directory.resolve("wal").resolve("0000000000000000.wal");
        assertUsage(inspect(dataFile, "--records"), "--records is for the write-ahead log; " + dataFile + " is a data file");
        assertUsage(inspect(segment, "--pages"), "--pages is for the data file; " + segment
                + " is a write-ahead log segment");
        assertUsage(inspect(directory.resolve("control"), "--catalog"), "--catalog does not apply to a control file ("
                + directory.resolve("control") + "); it has no options");
    }

    @Test
    void pagesAndObjectsMustExist() throws Exception {
        Path dataFile = directory.resolve("data").resolve("columba.data");
        long pages = Files.size(dataFile) / PageFormat.PAGE_SIZE;
        assertUsage(inspect(directory, "--page", pages), "page " + pages + " is past the end of " + dataFile + ", which has "
                + pages + " pages (0 to " + (pages - 1) + ")");
        assertUsage(inspect(directory, "--object", "nosuch"), "no table or index named 'nosuch' in the catalog; it has "
                + "orders, orders_by_customer, events");
    }
}

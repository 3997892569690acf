package dev.columba.planner.session;

import dev.columba.testing.crash.ChildJvm;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.storage.db.Database;
import dev.columba.storage.db.DatabaseLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kills a child JVM ({@link CopyCrashWorkload}, SIGKILL) in the middle of a {@code COPY} into a
 * rowstore table (its rows out of key order, so the load sorts them in runs and then builds the
 * tree) and into a columnstore table (rowgroups written as the load goes), once the load has
 * written half a megabyte of spilled pages and sort runs, or of rowgroup files, before it commits.
 * Reopened, the table must hold exactly the rows of the load before it, nothing of the killed one,
 * and no temporary file may be left, nor any rowgroup or dictionary file the killed load wrote
 * (removed at open, before the table is written again); the same COPY run again must load every
 * row, and the table's files (data file, rowgroup files) must then be no larger, 5% allowed, than
 * those of a database
 * that made the same two loads without a crash: the killed load's pages and files reused or
 * removed, not kept.
 */
class CopyCrashTest {
    private static final int FIRST_ROWS = 1_000;
    private static final int SECOND_ROWS = 200_000;
    /**
     * Bytes the killed load has written when it is killed: into the spill file and sort runs (the
     * rowstore's tree is being built: its pages no longer fit the transaction's share of the pool),
     * or into rowgroup files (the columnstore).
     */
    private static final long GROWTH_BEFORE_KILL = 512L << 10;

    @TempDir
    Path directory;

    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void aCopyKilledMidwayLeavesTheTableAsBeforeAndItsSpaceReusable(String organization) throws Exception {
        boolean columnstore = organization.equals("columnstore");
        Path first = directory.resolve("first.csv");
        Path second = directory.resolve("second.csv");
        CopyCrashWorkload.writeFile(first, 1, FIRST_ROWS, 1);
        CopyCrashWorkload.writeFile(second, FIRST_ROWS + 1, SECOND_ROWS, 2);

        // The same two loads without a crash: the rows and the size to compare with.
        Path control = directory.resolve("control");
        List<List<Object>> before;
        List<List<Object>> after;
        List<String> filesBefore;
        try (Engine engine = CopyCrashWorkload.open(control); Session session = engine.openSession()) {
            CopyCrashWorkload.create(session, columnstore);
            CopyCrashWorkload.copy(session, first);
            before = contents(session);
            filesBefore = columnstoreFiles(control);
            CopyCrashWorkload.copy(session, second);
            after = contents(session);
        }
        long controlBytes = tableBytes(control);
        assertEquals(FIRST_ROWS, before.size());
        assertEquals(FIRST_ROWS + SECOND_ROWS, after.size());

        Path database = directory.resolve("crashed");
        List<String> lines = runAndKill(database, organization, first, second);
        assertFalse(lines.contains("C"), "the COPY committed before the kill: " + lines);
        assertTrue(lines.contains("L"), "the child reached the second COPY: " + lines);

        try (Engine engine = CopyCrashWorkload.open(database); Session session = engine.openSession()) {
            assertEquals(before, contents(session), organization + ": the table as before the killed COPY");
            assertEquals(List.of(), filesUnder(database.resolve(DatabaseLayout.TEMP_DIRECTORY)),
                    "reopening leaves no temporary file of the killed load");
            assertEquals(FIRST_ROWS, countedRows(session), "the row count as before the killed COPY");
            // Before any further write to the table: the opening itself removes what the killed load wrote.
            assertEquals(filesBefore, columnstoreFiles(database), organization + ": reopening leaves exactly the"
                    + " columnstore files of the committed load (the killed load's rowgroup and dictionary files gone)");
            assertEquals(List.of(), filesUnder(DatabaseLayout.damagedDirectory(database)),
                    "nothing was uncertain enough to be moved aside");
            CopyCrashWorkload.copy(session, second);
            assertEquals(after, contents(session), organization + ": the COPY run again loads every row");
            assertEquals(FIRST_ROWS + SECOND_ROWS, countedRows(session), "the row count the loads kept");
        }
        long crashedBytes = tableBytes(database);
        assertTrue(crashedBytes <= controlBytes + controlBytes / 20, organization + ": the killed load's space was reused: "
                + crashedBytes + " bytes of data against " + controlBytes + " without the crash; files "
                + filesUnder(database.resolve(DatabaseLayout.DATA_DIRECTORY)) + " "
                + filesUnder(database.resolve(Database.COLUMNSTORE_DIRECTORY)));
        try (Engine engine = CopyCrashWorkload.open(database); Session session = engine.openSession()) {
            assertEquals(after, contents(session), organization + ": and after reopening");
        }
    }

    /** The table's row count as the catalog keeps it (what the loads added), not a scan. */
    private static long countedRows(Session session) {
        return ((Number) SessionRows.query(session, "SELECT [rows] FROM sys.partitions WHERE table_name = '"
                + CopyCrashWorkload.TABLE + "'").getFirst().getFirst()).longValue();
    }

    private static List<List<Object>> contents(Session session) {
        return SessionRows.query(session, "SELECT id, name, price, day FROM " + CopyCrashWorkload.TABLE + " ORDER BY id");
    }

    /** Runs the child until the second COPY has written {@link #GROWTH_BEFORE_KILL} bytes, then kills it. */
    private static List<String> runAndKill(Path database, String organization, Path first, Path second) {
        Path written = organization.equals("columnstore") ? database.resolve(Database.COLUMNSTORE_DIRECTORY)
                : database.resolve(DatabaseLayout.TEMP_DIRECTORY);
        // A small heap: the rowstore load's sort (an eighth of the heap) writes runs to the temp directory.
        List<String> lines = ChildJvm.of(CopyCrashWorkload.class, database, organization, first, second)
                .withJvmOptions("-Xmx96m")
                .killWhen(line -> line.equals("L") && grown(written, GROWTH_BEFORE_KILL))
                .lines();
        System.out.println("CopyCrashTest " + organization + ": killed with " + sizes(database));
        return lines;
    }

    /**
     * Polls until the files under {@code root} grew by {@code bytes} (the child writing them), then
     * true; gives up after a minute (a child that died or finished), the test's checks then fail.
     */
    private static boolean grown(Path root, long bytes) {
        long start = bytesUnder(root);
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (bytesUnder(root) < start + bytes && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        return true;
    }

    /** The columnstore's files, as paths relative to its directory (the same table ids in both databases). */
    private static List<String> columnstoreFiles(Path database) {
        Path root = database.resolve(Database.COLUMNSTORE_DIRECTORY);
        return filesUnder(root).stream().map(file -> root.relativize(file).toString()).sorted().toList();
    }

    /** The bytes of a database's table files: the data file and the columnstore's rowgroup files. */
    private static long tableBytes(Path database) {
        return bytesUnder(database.resolve(DatabaseLayout.DATA_DIRECTORY))
                + bytesUnder(database.resolve(Database.COLUMNSTORE_DIRECTORY));
    }

    private static String sizes(Path database) {
        StringBuilder text = new StringBuilder();
        for (Path file : filesUnder(database)) {
            try {
                text.append(database.relativize(file)).append('=').append(Files.size(file)).append(' ');
            } catch (IOException e) {
                text.append(file).append("=gone ");
            }
        }
        return text.toString();
    }

    private static long bytesUnder(Path root) {
        long bytes = 0;
        for (Path file : filesUnder(root)) {
            try {
                bytes += Files.size(file);
            } catch (IOException e) {
                // A file removed while walking (a rowgroup file renamed into place) counts as nothing.
            }
        }
        return bytes;
    }

    private static List<Path> filesUnder(Path root) {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (UncheckedIOException e) {
            // The child deleted a file during the walk: try again.
            return filesUnder(root);
        }
    }
}

package dev.columba.bench.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScanTableTest {
    private static final PrintStream QUIET = new PrintStream(PrintStream.nullOutputStream());

    @TempDir
    Path data;

    @Test
    void expectedResultFollowsTheSeedsFormula() {
        // j = 3, 2, 1, 4 for i = 1..4
        assertEquals(new ScanResult(4, 10, ScanTable.FIRST_DT.plusSeconds(4)), ScanTable.expected(4));
        assertEquals(524_288, ScanTable.rowsFor(1024), "four rows per 8 KB page");
    }

    @Test
    void loadsOnceThenReusesAndScansTheExpectedRows() {
        ScanTable.Description loaded = ScanTable.prepare(data, 1, QUIET);
        assertTrue(loaded.loadedNow());
        assertEquals(512, loaded.rows());
        assertEquals(128, loaded.leafPages(), "four rows per leaf");

        ScanTable.Description reused = ScanTable.prepare(data, 1, QUIET);
        assertFalse(reused.loadedNow());
        assertEquals(loaded.leafPages(), reused.leafPages());

        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", reused.bufferPoolHoldingTable());
        try (Database database = Database.open(reused.directory(), settings, NativeFilesFacade.INSTANCE)) {
            TableStore table = new Tables(database).table(database.bufferPool(), ScanTable.TABLE_NAME, new IoCounters());
            for (ReadAheadOptions readAhead : new ReadAheadOptions[] {ReadAheadOptions.OFF, new ReadAheadOptions(true, 32, 8)}) {
                ScanResult result = ScanTable.scan(table, database.bufferPool(), readAhead, new IoCounters());
                assertEquals(ScanTable.expected(512), result, readAhead.toString());
                ScanTable.check(result, 512, "scan");
            }
            ColumbaException wrong = assertThrows(ColumbaException.class,
                    () -> ScanTable.check(new ScanResult(511, 0, null), 512, "a short scan"));
            assertEquals(ErrorCode.INTERNAL, wrong.errorCode());
        }
    }

    @Test
    void reloadsWhatAnotherShapeLeftAndRefusesForeignDirectories() throws Exception {
        ScanTable.prepare(data, 1, QUIET);
        Path marker = ScanTable.markerFile(data, 1);
        Files.writeString(marker, Files.readString(marker).replace("shape=" + ScanTable.SHAPE, "shape=older"));
        assertTrue(ScanTable.prepare(data, 1, QUIET).loadedNow(), "a table of another shape is reloaded");

        Path other = data.resolve("other");
        Files.createDirectories(ScanTable.directory(other, 1));
        Files.writeString(ScanTable.directory(other, 1).resolve("precious.txt"), "not the bench's");
        ColumbaException refused = assertThrows(ColumbaException.class, () -> ScanTable.prepare(other, 1, QUIET));
        assertEquals(ErrorCode.INVALID_ARGUMENT, refused.errorCode());
        assertTrue(Files.exists(ScanTable.directory(other, 1).resolve("precious.txt")));
    }
}

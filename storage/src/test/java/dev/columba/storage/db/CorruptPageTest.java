package dev.columba.storage.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.datagen.RowCursor;
import dev.columba.datagen.TestTableGenerator;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.row.KeyCodec;
import dev.columba.core.type.SqlType;
import dev.columba.storage.table.TableCursor;
import dev.columba.storage.table.TableScan;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import dev.columba.storage.txn.Transaction;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A byte flipped on disk in one page of one table: reading that page fails with an error naming
 * the file and the page, and nothing else is lost — the other table, and the rows of the damaged
 * table on other pages, still read.
 */
class CorruptPageTest {
    @TempDir
    Path directory;

    @Test
    void aFlippedByteIsReportedWithFileAndPageAndNothingElseIsLost() throws Exception {
        IoCounters counters = new IoCounters();
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "8MB");
        long corruptPage;
        try (Database database = Database.open(directory, settings, NativeFilesFacade.INSTANCE)) {
            Tables tables = new Tables(database);
            try (Transaction transaction = database.begin()) {
                for (String name : List.of("damaged", "intact")) {
                    TestTableGenerator generator = new TestTableGenerator(5000, name.length());
                    TableStore table = tables.createTable(transaction, name, generator.schema(), List.of(0), true, Map.of());
                    RowCursor rows = generator.cursor();
                    while (rows.next()) {
                        table.insert(transaction, rows.row(), counters);
                    }
                }
                transaction.commit();
            }
            TableStore damaged = tables.table(database.bufferPool(), "damaged", counters);
            // The leaf holding id 2500.
            corruptPage = firstLeafOf(damaged, database, 2500);
        }
        try (RandomAccessFile file = new RandomAccessFile(directory.resolve("data").resolve("columba.data").toFile(), "rw")) {
            long offset = corruptPage * PageFormat.PAGE_SIZE + 3000;
            file.seek(offset);
            int original = file.read();
            file.seek(offset);
            file.write(original ^ 0x40);
        }
        try (Database database = Database.open(directory, settings, NativeFilesFacade.INSTANCE)) {
            Tables tables = new Tables(database);
            TableStore damaged = tables.table(database.bufferPool(), "damaged", counters);
            ColumbaException error = assertThrows(ColumbaException.class, () -> count(damaged, database));
            assertEquals(ErrorCode.PAGE_CHECKSUM_MISMATCH, error.errorCode());
            assertTrue(error.getMessage().contains("page " + corruptPage + " of "), error.getMessage());
            assertTrue(error.getMessage().contains("columba.data"), error.getMessage());
            assertEquals("XX001", error.errorCode().sqlState());

            assertEquals(5000, count(tables.table(database.bufferPool(), "intact", counters), database));
            assertNotNull(damaged.get(database.bufferPool(), new Object[] {1}, counters), "rows on other pages still read");
            assertNotNull(damaged.get(database.bufferPool(), new Object[] {5000}, counters), "rows on other pages still read");
            ColumbaException again = assertThrows(ColumbaException.class,
                    () -> damaged.get(database.bufferPool(), new Object[] {2500}, counters));
            assertEquals(ErrorCode.PAGE_CHECKSUM_MISMATCH, again.errorCode(), "the damage is reported every time");
        }
    }

    private static long firstLeafOf(TableStore table, Database database, int id) {
        return table.tree().leafFor(database.bufferPool(), KeyCodec.of(SqlType.INT).encode(new Object[] {id}),
                new IoCounters());
    }

    private static long count(TableStore table, Database database) {
        long rows = 0;
        try (TableCursor cursor = table.scan(database.bufferPool(), TableScan.all(ReadAheadOptions.OFF), new IoCounters())) {
            while (cursor.next()) {
                rows++;
            }
        }
        return rows;
    }
}

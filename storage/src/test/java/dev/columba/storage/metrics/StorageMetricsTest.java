package dev.columba.storage.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.stats.IoCounters;
import dev.columba.core.stats.IoStats;
import dev.columba.datagen.RowCursor;
import dev.columba.datagen.TestTableGenerator;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.table.TableCursor;
import dev.columba.storage.table.TableScan;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import dev.columba.storage.txn.Transaction;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StorageMetricsTest {
    @TempDir
    Path directory;

    @Test
    void metersReportWhatTheCountersCounted() {
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "16MB");
        try (Database database = Database.open(directory, settings, NativeFilesFacade.INSTANCE)) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            StorageMetrics.bind(database.bufferPool(), "test", registry);
            IoCounters counters = new IoCounters();
            TableStore table;
            TestTableGenerator generator = new TestTableGenerator(20_000, 1);
            try (Transaction transaction = database.begin()) {
                table = new Tables(database).createTable(transaction, "t", generator.schema(), List.of(0), true, Map.of());
                RowCursor rows = generator.cursor();
                while (rows.next()) {
                    table.insert(transaction, rows.row(), counters);
                }
                transaction.commit();
            }
            database.checkpoint();
            database.dropCleanBuffers();
            IoStats before = database.cumulativeIoStatistics();
            DistributionSummary ioSize = registry.get("columba.io.size").summary();
            long iosBefore = ioSize.count();
            try (TableCursor cursor = table.scan(database.bufferPool(), TableScan.all(new ReadAheadOptions(true, 500, 64)),
                    new IoCounters())) {
                while (cursor.next()) {
                    // Drain the scan.
                }
            }
            IoStats stats = database.cumulativeIoStatistics();
            IoStats scan = stats.minus(before);
            assertTrue(scan.readAheadReads() > 0);
            assertEquals(stats.physicalReads(), registry.get("columba.pages.read").tag("kind", "physical").functionCounter().count());
            assertEquals(stats.readAheadReads(), registry.get("columba.pages.read").tag("kind", "read_ahead").functionCounter().count());
            assertEquals(stats.logicalReads(), registry.get("columba.pages.read").tag("kind", "logical").functionCounter().count());
            assertEquals(stats.readAheadUsed(), registry.get("columba.read_ahead.pages").tag("outcome", "used").functionCounter().count());
            assertEquals(scan.readIos(), ioSize.count() - iosBefore, "one size sample per read request");
            assertTrue(ioSize.max() > 8192, "read-ahead requests are larger than a page");
            double hitRatio = registry.get("columba.buffer_pool.hit_ratio").gauge().value();
            assertEquals(1.0 - (double) (stats.physicalReads() + stats.lobPhysicalReads())
                    / (stats.logicalReads() + stats.lobLogicalReads()), hitRatio, 1e-9);
            assertTrue(registry.get("columba.page_io.wait").functionCounter().count() > 0);
        }
    }
}

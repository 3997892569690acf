package dev.columba.planner.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.diag.DictionaryDiagnostics;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.planner.schema.SystemView;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.Transaction;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQL form of the dictionary diagnosis: {@code sys.column_store_dictionary_pressure} and
 * {@code sys.column_store_recommendations} show what {@link DictionaryDiagnostics} finds for a table
 * whose wide, distinct text column trims its rowgroups, and nothing for one that is not pressured.
 */
class DictionaryPressureViewsTest {
    @TempDir
    Path directory;

    private static void load(Database database, String name, String cap, int rows) {
        TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.INT), Column.notNull("note", SqlType.varchar(400)));
        try (Transaction transaction = database.begin()) {
            ColumnstoreTable table = ColumnstoreTable.create(database, transaction, name, schema, Map.of(
                    "rowgroup_max_rows", "16384", "bulk_min_rows", "1000", "dictionary_cap", cap,
                    "dictionary_overflow", "trim"));
            table.bulkInsert(transaction, IntStream.range(0, rows).mapToObj(row -> new Object[] {row,
                    ("note %09d ".formatted(row * 7919L % 1_000_003)).repeat(20)}).iterator());
            transaction.commit();
        }
    }

    @Test
    void theViewsShowTheCulpritAndTheRankedRecommendations() {
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "16MB");
        try (Database database = Database.open(directory, settings, NativeFilesFacade.INSTANCE)) {
            load(database, "Pressured", "256KB", 40_000);
            load(database, "Roomy", "64MB", 2_000);
            List<CatalogEntry> entries = database.catalog().entries(database.bufferPool(), new IoCounters());
            Map<String, dev.columba.planner.schema.ColumbaTable> views = SystemViews.create(database, entries, new PlanCache());
            List<Object[]> pressure = ((SystemView) views.get("column_store_dictionary_pressure")).rows();
            List<Object[]> recommendations = ((SystemView) views.get("column_store_recommendations")).rows();

            Object[] note = pressure.stream().filter(row -> row[0].equals("Pressured") && row[2].equals("note"))
                    .findFirst().orElseThrow();
            assertEquals(2, note[1], "column_id is 1-based");
            assertEquals(true, note[3], "note is the culprit");
            assertTrue((Integer) note[4] > 0, "rowgroups at the cap: " + note[4]);
            assertEquals(256L << 10, note[11]);
            assertTrue(pressure.stream().filter(row -> row[0].equals("Roomy")).noneMatch(row -> (Boolean) row[3]));

            List<Object[]> pressured = recommendations.stream().filter(row -> row[0].equals("Pressured")).toList();
            assertFalse(pressured.isEmpty());
            for (int index = 0; index < pressured.size(); index++) {
                assertEquals(index + 1, pressured.get(index)[1], "ranks are 1, 2, ...");
            }
            assertTrue(pressured.stream().anyMatch(row -> ((String) row[2]).startsWith("Keep note out of the columnstore")),
                    "recommendations: " + pressured.stream().map(row -> (String) row[2]).toList());
            Object[] first = pressured.get(0);
            assertTrue((Integer) first[5] < (Integer) first[4], "the best action means fewer, larger rowgroups: "
                    + first[4] + " -> " + first[5]);
            assertTrue((Double) first[8] > 1.0, "estimated speedup " + first[8]);
        }
    }
}

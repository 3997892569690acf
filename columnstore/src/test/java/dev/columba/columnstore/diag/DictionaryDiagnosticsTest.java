package dev.columba.columnstore.diag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.core.stats.IoCounters;
import dev.columba.datagen.CommentsGenerator;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.Transaction;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The diagnostics on seed 001's table (scaled as in Seed001Test): they name the Text column as the
 * cause, rank the fix that keeps rowgroups full first, and their what-if estimate of a larger
 * dictionary cap lands within 10% of what a real reload with that cap gives.
 */
class DictionaryDiagnosticsTest {
    private static final long ROWS = 262_144;

    @TempDir
    Path directory;

    private static ColumnstoreTable load(Database database, String name, String cap) {
        Map<String, String> options = new HashMap<>(Map.of("rowgroup_max_rows", "65536", "bulk_min_rows", "1000",
                "dictionary_cap", cap, "dictionary_overflow", "trim"));
        CommentsGenerator generator = CommentsGenerator.withText(ROWS, 1);
        try (Transaction transaction = database.begin()) {
            ColumnstoreTable table = ColumnstoreTable.create(database, transaction, name, generator.schema(), options);
            table.bulkInsert(transaction, generator.rows());
            transaction.commit();
            return table;
        }
    }

    @Test
    void namesTheTextColumnAndPredictsAReloadWithinTenPercent() {
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "32MB");
        IoCounters counters = new IoCounters();
        try (Database database = Database.open(directory, settings, NativeFilesFacade.INSTANCE)) {
            ColumnstoreTable pressured = load(database, "Comments", "1MB");
            DictionaryDiagnostics.Report report = DictionaryDiagnostics.analyze(pressured, database.bufferPool(), counters);
            System.out.println(DictionaryDiagnostics.format(report));
            assertEquals(List.of("Text"), report.culprits());
            DictionaryDiagnostics.Recommendation fallback = report.recommendations().stream()
                    .filter(recommendation -> recommendation.action().contains("dictionary_overflow = fallback"))
                    .findFirst().orElseThrow();
            assertEquals(4, fallback.expected().rowgroups(), "fallback keeps 4 full rowgroups");
            assertTrue(fallback.estimatedSpeedup() > 1, fallback.toString());
            assertTrue(report.recommendations().stream().anyMatch(recommendation ->
                    recommendation.action().startsWith("Keep Text out of the columnstore")));
            for (int rank = 1; rank < report.recommendations().size(); rank++) {
                assertTrue(report.recommendations().get(rank - 1).estimatedSpeedup()
                        >= report.recommendations().get(rank).estimatedSpeedup(), "ranked by estimated effect");
            }

            DictionaryDiagnostics.Layout predicted = DictionaryDiagnostics.simulate(pressured, database.bufferPool(), counters,
                    Map.of("dictionary_cap", String.valueOf(2L << 20)));
            ColumnstoreTable reloaded = load(database, "Comments_2MB", "2MB");
            List<RowgroupEntry> actual = reloaded.rowgroups(database.bufferPool(), counters);
            double actualAverage = actual.stream().mapToLong(RowgroupEntry::totalRows).average().orElseThrow();
            System.out.printf("what-if dictionary_cap=2MB: predicted %d rowgroups of %.0f rows, a real reload gave %d of %.0f%n",
                    predicted.rowgroups(), predicted.averageRows(), actual.size(), actualAverage);
            assertEquals(actual.size(), predicted.rowgroups(), actual.size() * 0.1, "rowgroup count within 10%");
            assertEquals(actualAverage, predicted.averageRows(), actualAverage * 0.1, "rows per rowgroup within 10%");
        }
    }
}

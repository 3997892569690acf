package dev.columba.columnstore.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.build.TrimReason;
import dev.columba.columnstore.encoding.EncodingKind;
import dev.columba.columnstore.encoding.FallbackReason;
import dev.columba.columnstore.encoding.SegmentMetadata;
import dev.columba.columnstore.file.FooterMetadata;
import dev.columba.columnstore.file.RowgroupFile;
import dev.columba.columnstore.views.ColumnstoreViews;
import dev.columba.core.stats.IoCounters;
import dev.columba.datagen.CommentsGenerator;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.Transaction;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 001 at a size CI affords: the comments table with its wide, high-cardinality Text column
 * against the same table without it. Rowgroups of 65,536 rows and a 1 MB dictionary cap stand for
 * SQL Server's 1,048,576 and 16 MB (the same ratio of cap to rows). Under
 * {@code dictionary_overflow = trim} the Text column's dictionary cuts every rowgroup short —
 * many more, much smaller rowgroups, trim reason DICTIONARY_SIZE — as SQL Server did to the
 * article's table; under the default {@code fallback} the rowgroups stay full and the Text
 * segments record that they gave their dictionary up.
 */
class Seed001Test {
    private static final long ROWS = 262_144;
    private static final Map<String, String> SCALED = Map.of("rowgroup_max_rows", "65536", "bulk_min_rows", "1000",
            "dictionary_cap", "1MB");

    @TempDir
    Path directory;

    private record Layout(int rowgroups, double averageRows, double averageBytes, List<TrimReason> reasons) {
        static Layout of(List<RowgroupEntry> entries) {
            return new Layout(entries.size(),
                    entries.stream().mapToLong(RowgroupEntry::totalRows).average().orElse(0),
                    entries.stream().mapToLong(RowgroupEntry::sizeBytes).average().orElse(0),
                    entries.stream().map(RowgroupEntry::trimReason).toList());
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%d rowgroups, %.0f rows and %.2f MB each on average", rowgroups,
                    averageRows, averageBytes / 1048576);
        }
    }

    private static ColumnstoreTable load(Database database, String name, CommentsGenerator generator,
                                         Map<String, String> options) {
        try (Transaction transaction = database.begin()) {
            ColumnstoreTable table = ColumnstoreTable.create(database, transaction, name, generator.schema(), options);
            table.bulkInsert(transaction, generator.rows());
            transaction.commit();
            return table;
        }
    }

    private static Map<String, String> with(String overflow) {
        Map<String, String> options = new java.util.HashMap<>(SCALED);
        options.put("dictionary_overflow", overflow);
        return options;
    }

    @Test
    void theWideTextColumnTrimsRowgroupsUnderTrimAndFallsBackByDefault() {
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "32MB");
        IoCounters counters = new IoCounters();
        try (Database database = Database.open(directory, settings, NativeFilesFacade.INSTANCE)) {
            ColumnstoreTable withoutText = load(database, "Comments_Modified", CommentsGenerator.withoutText(ROWS, 1), with("trim"));
            ColumnstoreTable trimmed = load(database, "Comments_Trim", CommentsGenerator.withText(ROWS, 1), with("trim"));
            ColumnstoreTable fallback = load(database, "Comments", CommentsGenerator.withText(ROWS, 1), SCALED);

            Layout narrow = Layout.of(withoutText.rowgroups(database.bufferPool(), counters));
            Layout pressured = Layout.of(trimmed.rowgroups(database.bufferPool(), counters));
            Layout full = Layout.of(fallback.rowgroups(database.bufferPool(), counters));
            System.out.println("without Text:        " + narrow);
            System.out.println("with Text, trim:     " + pressured);
            System.out.println("with Text, fallback: " + full);

            assertEquals(4, narrow.rowgroups(), "without Text, every rowgroup is full");
            assertTrue(narrow.reasons().stream().allMatch(reason -> reason == TrimReason.NO_TRIM));
            assertTrue(pressured.rowgroups() >= 5 * narrow.rowgroups(), "dictionary pressure multiplies rowgroups: "
                    + pressured);
            assertTrue(pressured.averageRows() <= narrow.averageRows() / 5, pressured.toString());
            List<TrimReason> trims = pressured.reasons().subList(0, pressured.rowgroups() - 1);
            assertTrue(trims.stream().allMatch(reason -> reason == TrimReason.DICTIONARY_SIZE), trims.toString());

            int textColumn = trimmed.schema().indexOf("Text");
            List<ColumnstoreViews.DictionaryRow> textDictionaries = ColumnstoreViews.dictionaries(trimmed,
                    database.bufferPool(), counters).stream().filter(row -> row.columnId() == textColumn).toList();
            double averageDictionary = textDictionaries.stream().mapToLong(ColumnstoreViews.DictionaryRow::onDiskSize)
                    .average().orElse(0);
            System.out.printf(Locale.ROOT, "with Text, trim: %d Text dictionaries, %.2f MB on average (cap 1 MB)%n",
                    textDictionaries.size(), averageDictionary / 1048576);
            // The first rowgroup's dictionary became the column's primary, full to the cap; later rowgroups
            // filled secondaries to the cap and were cut, but the encoder found storing all-distinct text
            // plainly smaller than through a dictionary, so they keep none (the trim happened anyway, as
            // in SQL Server, whose dictionary fills before it is judged).
            ColumnstoreViews.DictionaryRow primary = textDictionaries.get(0);
            assertEquals(ColumnstoreViews.DictionaryKind.PRIMARY, primary.kind());
            assertTrue(primary.onDiskSize() > 0.9 * 1048576 && primary.onDiskSize() <= 1048576,
                    "the primary Text dictionary filled the cap: " + primary);

            assertEquals(4, full.rowgroups(), "fallback keeps rowgroups full");
            int text = fallback.schema().indexOf("Text");
            for (RowgroupEntry entry : fallback.rowgroups(database.bufferPool(), counters)) {
                try (RowgroupFile file = RowgroupFile.open(NativeFilesFacade.INSTANCE, fallback.rowgroupFile(entry.rowgroupId()))) {
                    SegmentMetadata segment = FooterMetadata.decode(file.metadata(text),
                            fallback.schema().column(text).type(), file.path().toString());
                    assertEquals(FallbackReason.DICTIONARY_OVERFLOW, segment.fallbackReason(), "rowgroup " + entry.rowgroupId());
                    assertEquals(EncodingKind.PLAIN, segment.encoding());
                }
            }
        }
    }
}

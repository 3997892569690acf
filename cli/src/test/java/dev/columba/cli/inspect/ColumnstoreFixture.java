package dev.columba.cli.inspect;

import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.columnstore.views.ColumnstoreViews;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.Transaction;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.IntStream;

/**
 * A small real database with two columnstore tables, built through the columnstore module itself,
 * for the inspect tests of rowgroup files, dictionaries and the rowgroup directory:
 * <ul>
 *   <li>{@code sales} ({@code dictionary_overflow = fallback}, 1 KB dictionary cap, 1,000-row
 *       rowgroups): {@value #SALES_ROWS} rows bulk-inserted, so rowgroups of 1,000, 1,000 and 500
 *       rows (NO_TRIM, NO_TRIM, BULKLOAD); {@code region} has five values in rowgroup 0, which make
 *       the column's primary dictionary, and three more later, which the later rowgroups keep in
 *       secondary dictionaries; {@code note} is unique per row and overflows the cap, so its
 *       segments fall back to a dictionary-less encoding. Then one row of rowgroup 0 is deleted and
 *       {@value #SALES_DELTA_ROWS} rows are inserted one by one, which opens a delta rowgroup.</li>
 *   <li>{@code trimmed} ({@code dictionary_overflow = trim}, 1 KB cap): {@value #TRIMMED_ROWS}
 *       rows with a unique {@code tag}, so the dictionary cuts every rowgroup short
 *       (DICTIONARY_SIZE) but the last (BULKLOAD); rowgroups after the first keep their new tags in
 *       a secondary dictionary stored in the rowgroup file.</li>
 * </ul>
 */
final class ColumnstoreFixture {
    static final int SALES_ROWS = 2500;
    static final int SALES_DELTA_ROWS = 3;
    static final int TRIMMED_ROWS = 400;
    static final List<String> REGIONS = List.of("north", "east", "south", "west", "centre");
    /** Regions that appear only after the first rowgroup (ids above 1,000), in every other row. */
    static final List<String> LATER_REGIONS = List.of("islands", "north-east", "south-west");

    static final TableSchema SALES_SCHEMA = TableSchema.of(Column.notNull("id", SqlType.INT),
            Column.nullable("region", SqlType.varchar(20)), Column.nullable("note", SqlType.varchar(40)),
            Column.nullable("amount", SqlType.BIGINT));
    static final TableSchema TRIMMED_SCHEMA = TableSchema.of(Column.notNull("id", SqlType.INT),
            Column.notNull("tag", SqlType.varchar(40)));

    private ColumnstoreFixture() {
    }

    /** Row {@code id} of {@code sales} (ids start at 1). */
    static Object[] salesRow(int id) {
        return new Object[] {id, region(id), "note-" + id, id % 11 == 0 ? null : (long) id * 3};
    }

    /** {@code region} of row {@code id}: NULL every 7th row. */
    static String region(int id) {
        if (id % 7 == 0) {
            return null;
        }
        return id > 1000 && id % 2 == 1 ? LATER_REGIONS.get(id % LATER_REGIONS.size()) : REGIONS.get(id % REGIONS.size());
    }

    static Object[] trimmedRow(int id) {
        return new Object[] {id, "tag-" + id};
    }

    /**
     * What the columnstore itself says about the tables, for the tests to compare inspect's output
     * with: their object ids, the root page of {@code sales}' rowgroup directory, the rowgroup
     * directories, and {@code sys.column_store_segments}.
     */
    record Facts(int salesId, int trimmedId, long salesDirectoryRoot, List<RowgroupEntry> salesRowgroups,
                 List<RowgroupEntry> trimmedRowgroups,
                 List<ColumnstoreViews.SegmentRow> salesSegments, List<ColumnstoreViews.SegmentRow> trimmedSegments) {
    }

    /** Creates the database in {@code directory} and closes it cleanly. */
    static Facts createDatabase(Path directory) {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "16MB");
        IoCounters counters = new IoCounters();
        try (Database database = Database.open(directory, properties, NativeFilesFacade.INSTANCE)) {
            ColumnstoreTable sales;
            try (Transaction transaction = database.begin()) {
                sales = ColumnstoreTable.create(database, transaction, "sales", SALES_SCHEMA, Map.of(
                        "rowgroup_max_rows", "1000", "bulk_min_rows", "100", "dictionary_cap", "1KB",
                        "dictionary_overflow", "fallback"));
                sales.bulkInsert(transaction, rows(1, SALES_ROWS, ColumnstoreFixture::salesRow));
                transaction.commit();
            }
            try (Transaction transaction = database.begin()) {
                sales.delete(transaction, 0, 4);
                for (int id = SALES_ROWS + 1; id <= SALES_ROWS + SALES_DELTA_ROWS; id++) {
                    sales.insert(transaction, salesRow(id));
                }
                transaction.commit();
            }
            ColumnstoreTable trimmed;
            try (Transaction transaction = database.begin()) {
                trimmed = ColumnstoreTable.create(database, transaction, "trimmed", TRIMMED_SCHEMA, Map.of(
                        "rowgroup_max_rows", "1000", "bulk_min_rows", "100", "dictionary_cap", "1KB",
                        "dictionary_overflow", "trim"));
                trimmed.bulkInsert(transaction, rows(1, TRIMMED_ROWS, ColumnstoreFixture::trimmedRow));
                transaction.commit();
            }
            return new Facts(sales.objectId(), trimmed.objectId(), sales.definition().rootPage(),
                    sales.rowgroups(database.bufferPool(), counters), trimmed.rowgroups(database.bufferPool(), counters),
                    ColumnstoreViews.segments(sales, database.bufferPool(), counters),
                    ColumnstoreViews.segments(trimmed, database.bufferPool(), counters));
        }
    }

    private static Iterator<Object[]> rows(int first, int last, java.util.function.IntFunction<Object[]> row) {
        return IntStream.rangeClosed(first, last).mapToObj(row).iterator();
    }

    /** The directory of a table's rowgroup files. */
    static Path tableDirectory(Path database, int tableId) {
        return database.resolve("columnstore").resolve(String.valueOf(tableId));
    }

    static Path rowgroupFile(Path database, int tableId, int rowgroupId) {
        return tableDirectory(database, tableId).resolve(rowgroupId + ".crg");
    }

    /** The segments of one rowgroup, in column order. */
    static List<ColumnstoreViews.SegmentRow> segmentsOf(List<ColumnstoreViews.SegmentRow> segments, int rowgroupId) {
        List<ColumnstoreViews.SegmentRow> found = new ArrayList<>();
        for (ColumnstoreViews.SegmentRow segment : segments) {
            if (segment.rowgroupId() == rowgroupId) {
                found.add(segment);
            }
        }
        return found;
    }
}

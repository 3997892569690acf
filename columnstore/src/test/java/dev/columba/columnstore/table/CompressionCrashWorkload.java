package dev.columba.columnstore.table;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.Transaction;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The child process of {@link CompressionCrashTest}: inserts batches of rows into a columnstore
 * table's delta store, printing {@code I <last id>} after each commit, and runs the tuple mover
 * after each batch, printing {@code M <rowgroups>}; the parent kills it with SIGKILL at a moment it
 * picks, often in the middle of a compression (writing files, committing).
 */
public final class CompressionCrashWorkload {
    static final String TABLE = "events";
    static final int BATCH = 1500;

    private CompressionCrashWorkload() {
    }

    static TableSchema schema() {
        return TableSchema.of(Column.notNull("id", SqlType.INT), Column.notNull("note", SqlType.varchar(100)));
    }

    static Properties settings() {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "8MB");
        return properties;
    }

    public static void main(String[] args) throws IOException {
        Path directory = Path.of(args[0]);
        try (Database database = Database.open(directory, settings(), NativeFilesFacade.INSTANCE)) {
            ColumnstoreTable table;
            try (Transaction transaction = database.begin()) {
                table = ColumnstoreTable.find(database, transaction.writes(), TABLE, transaction.systemCounters())
                        .orElse(null);
                if (table == null) {
                    table = ColumnstoreTable.create(database, transaction, TABLE, schema(),
                            Map.of("rowgroup_max_rows", "2000", "bulk_min_rows", "1000000"));
                }
                transaction.commit();
            }
            long next = database.catalog().byName(database.bufferPool(), TABLE, database.systemCounters())
                    .map(entry -> ((dev.columba.storage.catalog.CatalogEntry.Table) entry).rowCount()).orElse(0L) + 1;
            TupleMover mover = new TupleMover(database, 1, TimeUnit.HOURS);
            while (true) {
                try (Transaction transaction = database.begin()) {
                    for (int row = 0; row < BATCH; row++) {
                        int id = (int) next++;
                        table.insert(transaction, new Object[] {id, "note " + id});
                    }
                    transaction.commit();
                }
                System.out.println("I " + (next - 1));
                System.out.flush();
                int moved = mover.runOnce();
                System.out.println("M " + moved);
                System.out.flush();
            }
        }
    }
}

package dev.columba.storage.db;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import dev.columba.storage.txn.Transaction;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The child process of {@link CrashRecoveryTest}: commits batches of rows into a table as fast as
 * it can, printing {@code C <batch>} after each commit returns, and is killed with SIGKILL by the
 * parent at a moment the parent picks. Each batch inserts {@link #ROWS_PER_BATCH} rows and
 * rewrites the counter row (id 0) to its batch number, so some pages change by small deltas and
 * some by whole images. In mode {@code uncommitted} it stops after {@code commits} batches, leaves
 * a transaction with rows of negative ids open, prints {@code U} and waits to be killed. With
 * {@link #TWO_FILES} the table is placed on a filegroup of two files, so every batch writes pages
 * of both and recovery replays into both.
 */
public final class CrashWorkload {
    static final int ROWS_PER_BATCH = 250;
    static final String TABLE = "crash";
    /** The fourth argument that places the table on a filegroup of two files. */
    static final String TWO_FILES = "two-files";
    static final String FILEGROUP = "crashgroup";

    private CrashWorkload() {
    }

    static TableSchema schema() {
        return TableSchema.of(Column.notNull("id", SqlType.INT), Column.notNull("batch", SqlType.BIGINT),
                Column.notNull("payload", SqlType.varchar(400)));
    }

    static Properties settings() {
        Properties properties = new Properties();
        // A small pool, so committed pages are evicted (written) while later batches commit.
        properties.setProperty("buffer_pool_size", "2MB");
        properties.setProperty("wal_segment_size", "1MB");
        properties.setProperty("checkpoint_wal_size", "1MB");
        return properties;
    }

    static String payload(int id) {
        return ("payload of row " + id + " ").repeat(1 + Math.floorMod(id, 9));
    }

    public static void main(String[] args) throws IOException {
        Path directory = Path.of(args[0]);
        String mode = args[1];
        int commits = Integer.parseInt(args[2]);
        IoCounters counters = new IoCounters();
        Database database = Database.open(directory, settings(), NativeFilesFacade.INSTANCE);
        boolean twoFiles = args.length > 3 && args[3].equals(TWO_FILES);
        if (twoFiles && database.files().filegroup(FILEGROUP).isEmpty()) {
            database.addFilegroup(FILEGROUP);
            database.addFile("crash1", "fg/crash1.data", FILEGROUP);
            database.addFile("crash2", "fg/crash2.data", FILEGROUP);
        }
        Tables tables = new Tables(database);
        TableStore table;
        try (Transaction transaction = database.begin()) {
            table = tables.find(transaction.writes(), TABLE, counters).orElse(null);
            if (table == null) {
                table = tables.createTable(transaction, TABLE, schema(), List.of(0), true,
                        twoFiles ? Map.of(Tables.FILEGROUP_OPTION, FILEGROUP) : Map.of());
                table.insert(transaction, new Object[] {0, 0L, "counter"}, counters);
            }
            transaction.commit();
        }
        long batch = (Long) table.get(database.bufferPool(), new Object[] {0}, counters)[1];
        for (int done = 0; mode.equals("forever") || done < commits; done++) {
            batch++;
            try (Transaction transaction = database.begin()) {
                for (int row = 0; row < ROWS_PER_BATCH; row++) {
                    int id = (int) ((batch - 1) * ROWS_PER_BATCH + row + 1);
                    table.insert(transaction, new Object[] {id, batch, payload(id)}, counters);
                }
                table.update(transaction, new Object[] {0, batch, "counter"}, counters);
                transaction.commit();
            }
            System.out.println("C " + batch);
            System.out.flush();
            database.checkpointIfDue();
        }
        Transaction open = database.begin();
        for (int row = 1; row <= 2000; row++) {
            table.insert(open, new Object[] {-row, -1L, payload(row)}, counters);
        }
        System.out.println("U");
        System.out.flush();
        System.in.read();
    }
}

package dev.columba.storage.db;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.settings.CommitDurability;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.table.TableCursor;
import dev.columba.storage.table.TableScan;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import dev.columba.storage.txn.Transaction;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The child process of {@link DelayedDurabilityCrashTest}: commits transactions numbered 1, 2, 3,
 * ... as fast as it can, every third with full durability and the others delayed, printing
 * {@code F <n>} or {@code D <n>} after each commit returns, until the parent kills it with SIGKILL.
 * Transaction n inserts {@code n % 7 + 1} rows into {@link #ROWS} (ids {@code n * 100 + k}) and one
 * row into {@link #TRANSACTIONS} holding that count, so a transaction half there shows.
 */
public final class DelayedDurabilityCrashWorkload {
    static final String ROWS = "rows";
    static final String TRANSACTIONS = "transactions";

    private DelayedDurabilityCrashWorkload() {
    }

    static Properties settings() {
        Properties properties = new Properties();
        // Small, so that segments switch and checkpoints run while delayed commits are pending.
        properties.setProperty("buffer_pool_size", "2MB");
        properties.setProperty("wal_segment_size", "1MB");
        properties.setProperty("checkpoint_wal_size", "1MB");
        return properties;
    }

    static int rowCount(long transaction) {
        return (int) (transaction % 7) + 1;
    }

    static CommitDurability durability(long transaction) {
        return transaction % 3 == 0 ? CommitDurability.FULL : CommitDurability.DELAYED;
    }

    public static void main(String[] args) {
        IoCounters counters = new IoCounters();
        Database database = Database.open(java.nio.file.Path.of(args[0]), settings(), NativeFilesFacade.INSTANCE);
        Tables tables = new Tables(database);
        TableStore rows;
        TableStore transactions;
        try (Transaction transaction = database.begin()) {
            rows = tables.find(transaction.writes(), ROWS, counters).orElse(null);
            if (rows == null) {
                rows = tables.createTable(transaction, ROWS, TableSchema.of(Column.notNull("id", SqlType.BIGINT),
                        Column.notNull("txn", SqlType.BIGINT), Column.notNull("payload", SqlType.varchar(300))),
                        List.of(0), true, Map.of());
                tables.createTable(transaction, TRANSACTIONS, TableSchema.of(Column.notNull("txn", SqlType.BIGINT),
                        Column.notNull("row_count", SqlType.INT)), List.of(0), true, Map.of());
            }
            transactions = tables.find(transaction.writes(), TRANSACTIONS, counters).orElseThrow();
            transaction.commit();
        }
        long next = 1;
        try (TableCursor cursor = transactions.scan(database.bufferPool(), TableScan.all(ReadAheadOptions.OFF), counters)) {
            while (cursor.next()) {
                next = Math.max(next, (Long) cursor.row()[0] + 1);
            }
        }
        for (long txn = next; ; txn++) {
            try (Transaction transaction = database.begin()) {
                int count = rowCount(txn);
                for (int row = 0; row < count; row++) {
                    rows.insert(transaction, new Object[] {txn * 100 + row, txn, payload(txn, row)}, counters);
                }
                transactions.insert(transaction, new Object[] {txn, count}, counters);
                CommitDurability durability = durability(txn);
                transaction.commit(durability);
                System.out.println((durability == CommitDurability.FULL ? "F " : "D ") + txn);
                System.out.flush();
            }
            database.checkpointIfDue();
        }
    }

    static String payload(long txn, int row) {
        return ("row " + row + " of " + txn + " ").repeat(1 + (int) (txn % 9));
    }
}

package dev.columba.storage.txn;

import dev.columba.core.stats.IoCounters;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The child process of {@link LargeTransactionCrashTest}. Makes sure table {@code big} holds its
 * baseline (ids 0 to {@link LargeTransactionTest#ROWS} - 1 at version 0, loaded in committed
 * batches), prints {@code B <data file bytes>}, then runs one transaction several times the 2 MB pool
 * ({@link #largeTransaction}) and, in mode {@code spill}, prints {@code S} before committing and waits
 * to be killed; in mode {@code commit}, prints {@code L}, commits, prints {@code C} and waits.
 */
public final class LargeTransactionCrashWorkload {
    /** Rows the large transaction inserts after the baseline's. */
    static final int EXTRA_ROWS = 10_000;

    private LargeTransactionCrashWorkload() {
    }

    /** Every baseline row to version 1, and {@link #EXTRA_ROWS} more rows at version 1. */
    static void largeTransaction(Transaction transaction, TableStore table, IoCounters counters) {
        for (int id = 0; id < LargeTransactionTest.ROWS; id++) {
            table.update(transaction, new Object[] {id, 1, LargeTransactionTest.payload(id, 1)}, counters);
        }
        for (int id = LargeTransactionTest.ROWS; id < LargeTransactionTest.ROWS + EXTRA_ROWS; id++) {
            table.insert(transaction, new Object[] {id, 1, LargeTransactionTest.payload(id, 1)}, counters);
        }
    }

    public static void main(String[] args) throws IOException {
        Path directory = Path.of(args[0]);
        String mode = args[1];
        IoCounters counters = new IoCounters();
        Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE);
        Tables tables = new Tables(database);
        TableStore table = tables.find(database.bufferPool(), "big", counters).orElse(null);
        if (table == null) {
            try (Transaction transaction = database.begin()) {
                table = tables.createTable(transaction, "big", LargeTransactionTest.schema(), List.of(0), true, Map.of());
                transaction.commit();
            }
            for (int start = 0; start < LargeTransactionTest.ROWS; start += 1_000) {
                try (Transaction transaction = database.begin()) {
                    for (int id = start; id < start + 1_000; id++) {
                        table.insert(transaction, new Object[] {id, 0, LargeTransactionTest.payload(id, 0)}, counters);
                    }
                    transaction.commit();
                }
            }
            database.checkpoint();
        }
        System.out.println("B " + Files.size(database.dataFile().path()));
        System.out.flush();
        Transaction transaction = database.begin();
        largeTransaction(transaction, table, counters);
        if (mode.equals("spill")) {
            System.out.println("S " + transaction.writes().spilledPages());
            System.out.flush();
        } else {
            System.out.println("L");
            System.out.flush();
            transaction.commit();
            System.out.println("C");
            System.out.flush();
        }
        System.in.read();
    }
}

package dev.columba.storage.txn;

import dev.columba.core.stats.IoCounters;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The child process of {@link MinimalLoggingCrashTest}. Creates the empty clustered table {@code big}
 * (committed, checkpointed), prints {@code B <data file bytes>}, then bulk loads
 * {@link LargeTransactionTest#ROWS} rows into it, minimally logged, in one transaction several times
 * the 2 MB pool, and commits. It prints the name of a commit's sync point when it reaches it and
 * then waits to be killed, if that point is the one its mode names:
 * <ul>
 * <li>{@code written}: the load's pages are written to the data file, not yet synced;</li>
 * <li>{@code synced}: they are synced, the commit record is not yet appended;</li>
 * <li>{@code committed}: prints {@code C} once the commit returned;</li>
 * <li>{@code reuse}: as {@code committed}, but first fills a table {@code old} with ordinary (logged)
 * inserts after the checkpoint and drops it, so that {@code big} is created and loaded in the extents
 * {@code old} freed, whose page images recovery replays.</li>
 * </ul>
 */
public final class MinimalLoggingCrashWorkload {
    /** Rows of {@code old} in mode {@code reuse}: a few extents of logged pages. */
    static final int OLD_ROWS = 3_000;

    private MinimalLoggingCrashWorkload() {
    }

    public static void main(String[] args) throws IOException {
        Path directory = Path.of(args[0]);
        String mode = args[1];
        IoCounters counters = new IoCounters();
        Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE);
        if (mode.equals("reuse")) {
            database.checkpoint();
            Tables tables = new Tables(database);
            try (Transaction transaction = database.begin()) {
                TableStore old = tables.createTable(transaction, "old", LargeTransactionTest.schema(), List.of(0), true,
                        Map.of());
                for (int id = 0; id < OLD_ROWS; id++) {
                    // Another version than big's rows: a page image of old replayed over big shows.
                    old.insert(transaction, new Object[] {id, 7, LargeTransactionTest.payload(id, 7)}, counters);
                }
                transaction.commit();
            }
            try (Transaction transaction = database.begin()) {
                tables.dropTable(transaction, "old");
                transaction.commit();
            }
        }
        TableStore table = BulkLoadTest.createEmpty(database);
        if (!mode.equals("reuse")) {
            database.checkpoint();
        }
        System.out.println("B " + Files.size(database.dataFile().path()));
        System.out.flush();
        database.transactions().setSyncPoint(point -> {
            if ((mode.equals("written") && point.equals(TransactionManager.PAGES_WRITTEN))
                    || (mode.equals("synced") && point.equals(TransactionManager.PAGES_SYNCED))) {
                System.out.println("P " + point);
                System.out.flush();
                waitToBeKilled();
            }
        });
        Transaction transaction = database.begin();
        transaction.logNewPagesMinimally();
        BulkLoadTest.load(database, transaction, table, LargeTransactionTest.ROWS, counters);
        transaction.commit();
        System.out.println("C");
        System.out.flush();
        waitToBeKilled();
    }

    private static void waitToBeKilled() {
        try {
            System.in.read();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

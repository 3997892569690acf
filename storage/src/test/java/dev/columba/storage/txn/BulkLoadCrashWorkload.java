package dev.columba.storage.txn;

import dev.columba.core.stats.IoCounters;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The child process of {@link BulkLoadCrashTest}. Creates the empty clustered table {@code big}
 * (committed, checkpointed), prints {@code B <data file bytes>}, then bulk loads
 * {@link LargeTransactionTest#ROWS} rows into it bottom up in one transaction several times the
 * 2 MB pool; in mode {@code sort} loads them shuffled, prints {@code R <sort runs written>} before the
 * load ends and waits to be killed; in mode {@code load} prints {@code S <spilled pages>} before committing and waits to be
 * killed; in mode {@code commit} prints {@code L}, commits, prints {@code C} and waits.
 */
public final class BulkLoadCrashWorkload {
    private BulkLoadCrashWorkload() {
    }

    public static void main(String[] args) throws IOException {
        Path directory = Path.of(args[0]);
        String mode = args[1];
        IoCounters counters = new IoCounters();
        Database database = Database.open(directory, LargeTransactionTest.smallPool(), NativeFilesFacade.INSTANCE);
        TableStore table = BulkLoadTest.createEmpty(database);
        database.checkpoint();
        System.out.println("B " + Files.size(database.dataFile().path()));
        System.out.flush();
        Transaction transaction = database.begin();
        if (mode.equals("sort")) {
            // Shuffled rows: the load sorts them in runs in the temporary directory and is killed before it ends.
            TableStore.BulkInserter inserter = BulkLoadTest.bulkInserter(database, transaction, table, counters);
            for (int id : BulkLoadTest.shuffled(LargeTransactionTest.ROWS, 5)) {
                inserter.insert(transaction, new Object[] {id, 0, LargeTransactionTest.payload(id, 0)}, counters);
            }
            System.out.println("R " + inserter.sortRuns());
            System.out.flush();
            System.in.read();
            return;
        }
        BulkLoadTest.load(database, transaction, table, LargeTransactionTest.ROWS, counters);
        if (mode.equals("load")) {
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

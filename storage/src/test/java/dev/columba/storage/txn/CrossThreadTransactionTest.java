package dev.columba.storage.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write transaction belongs to whoever holds it, not to the thread that began it: ended on
 * another thread, the next writer and the closing checkpoint get their turn (issue 15: a rollback
 * on another thread failed with IllegalMonitorStateException and every later writer waited forever).
 */
class CrossThreadTransactionTest {
    @TempDir
    Path directory;

    private static Transaction beginOnAnotherThread(Database database) throws Exception {
        return CompletableFuture.supplyAsync(database::begin).get();
    }

    @Test
    void aTransactionBegunOnOneThreadEndsOnAnotherAndTheNextWriterGoesOn() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (Database database = Database.open(directory, new Properties(), NativeFilesFacade.INSTANCE)) {
                beginOnAnotherThread(database).rollback();
                beginOnAnotherThread(database).commit();
                try (Transaction transaction = database.begin()) {
                    transaction.commit();
                }
                database.checkpoint();
            }
        });
    }

    @Test
    void theThreadHoldingTheTurnMayTakeItAgainAndEachTakeIsReleasedOnce() {
        WriterTurn turn = new WriterTurn();
        turn.take();
        turn.take();
        turn.release();
        turn.release();
        IllegalStateException unheld = assertThrows(IllegalStateException.class, turn::release);
        assertEquals("the writer's turn is not held", unheld.getMessage());
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            turn.take();
            CompletableFuture.runAsync(turn::release).get();
            CompletableFuture.runAsync(() -> {
                turn.take();
                turn.release();
            }).get();
        });
    }
}

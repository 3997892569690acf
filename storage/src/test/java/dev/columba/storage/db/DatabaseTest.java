package dev.columba.storage.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.btree.BTree;
import dev.columba.storage.txn.Transaction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatabaseTest {
    @TempDir
    Path directory;

    private static byte[] key(int number) {
        return String.format("key-%08d", number).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] value(int number) {
        return ("value of " + number + " ").repeat(1 + number % 5).getBytes(StandardCharsets.US_ASCII);
    }

    private static Properties small() {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "8MB");
        return properties;
    }

    @Test
    void committedChangesSurviveCloseAndReopenAndRolledBackOnesDoNot() {
        IoCounters counters = new IoCounters();
        BTree tree;
        try (Database database = Database.open(directory, small(), dev.columba.storage.io.NativeFilesFacade.INSTANCE)) {
            assertTrue(database.recoveryReport().created());
            try (Transaction transaction = database.begin()) {
                tree = BTree.create(transaction.writes(), database.allocator(), 100, counters);
                for (int number = 0; number < 5000; number++) {
                    tree.insert(transaction.writes(), database.allocator(), key(number), value(number), counters);
                }
                transaction.commit();
            }
            try (Transaction transaction = database.begin()) {
                for (int number = 5000; number < 6000; number++) {
                    tree.insert(transaction.writes(), database.allocator(), key(number), value(number), counters);
                }
                tree.delete(transaction.writes(), database.allocator(), key(7), counters);
                transaction.rollback();
            }
            assertNull(tree.get(database.bufferPool(), key(5500), counters));
            assertArrayEquals(value(7), tree.get(database.bufferPool(), key(7), counters));
        }
        try (Database database = Database.open(directory, small(), dev.columba.storage.io.NativeFilesFacade.INSTANCE)) {
            assertEquals(0, database.recoveryReport().transactionsReplayed(), "a clean close leaves nothing to replay");
            for (int number = 0; number < 5000; number++) {
                assertArrayEquals(value(number), tree.get(database.bufferPool(), key(number), counters));
            }
            assertNull(tree.get(database.bufferPool(), key(5500), counters));
        }
    }

    @Test
    void aSecondOpenOfTheSameDirectoryIsRefused() {
        try (Database database = Database.open(directory, small(), dev.columba.storage.io.NativeFilesFacade.INSTANCE)) {
            ColumbaException error = assertThrows(ColumbaException.class,
                    () -> Database.open(directory, small(), dev.columba.storage.io.NativeFilesFacade.INSTANCE));
            assertEquals(ErrorCode.DATABASE_IN_USE, error.errorCode());
        }
    }

    /**
     * A reader in this process finds the opening (the Trino connector reads through the engine's),
     * by any spelling of the directory, until it is closed; another directory has none.
     */
    @Test
    void theOpeningIsFoundInThisProcessUntilClosed() {
        assertTrue(Database.openInThisProcess(directory).isEmpty());
        Database database = Database.open(directory, small(), dev.columba.storage.io.NativeFilesFacade.INSTANCE);
        try {
            assertSame(database, Database.openInThisProcess(directory.resolve("..").resolve(directory.getFileName())).orElseThrow());
            assertTrue(database.isOpen());
            assertTrue(Database.openInThisProcess(directory.resolve("elsewhere")).isEmpty());
        } finally {
            database.close();
        }
        assertFalse(database.isOpen());
        assertTrue(Database.openInThisProcess(directory).isEmpty());
    }

    /**
     * A columba.properties whose checksum is right but whose values this build cannot use (a newer
     * database, another page size) is reported with that file's path, so the user knows what to look at.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({
            "page_size=8192, page_size=8193, PAGE_HEADER_INVALID, has page size 8193",
            "format_version=3, format_version=4, FORMAT_TOO_NEW, has format version 4",
            "format_version=3, format_version=0, FORMAT_TOO_OLD, has format version 0"})
    void aPropertiesFileTheBuildCannotUseIsNamed(String line, String damaged, ErrorCode code, String says) throws Exception {
        try (Database ignored = Database.open(directory, small(), dev.columba.storage.io.NativeFilesFacade.INSTANCE)) {
            // created, then closed cleanly
        }
        Path properties = DatabaseLayout.propertiesFile(directory);
        String text = java.nio.file.Files.readString(properties, StandardCharsets.UTF_8);
        assertTrue(text.contains(line + "\n") || text.contains(line + "\r\n"), text);
        String body = text.substring(0, text.lastIndexOf(dev.columba.storage.file.SealedPropertiesFile.CHECKSUM_PREFIX));
        java.nio.file.Files.write(properties, dev.columba.storage.file.SealedPropertiesFile.seal(body.replace(line, damaged)));

        ColumbaException refused = assertThrows(ColumbaException.class,
                () -> Database.open(directory, small(), dev.columba.storage.io.NativeFilesFacade.INSTANCE));

        assertEquals(code, refused.errorCode(), refused::getMessage);
        assertTrue(refused.getMessage().contains(properties.toString() + ": the database " + says), refused.getMessage());
    }
}

package dev.columba.storage.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.storage.io.NativeFilesFacade;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory whose creation did not finish (data and log folders with files, no control file: a
 * process killed while creating the database, found by the kill -9 campaign) opens as a new
 * database, its leftover folders kept whole in {@code damaged/}; it used to fail for ever with
 * "File exists" on the data file.
 */
class UnfinishedCreationTest {
    @TempDir
    Path directory;

    @Test
    void aCreationWithoutItsControlFileIsSetAsideAndTheDatabaseCreatedAnew() throws Exception {
        Database.open(directory, new Properties(), NativeFilesFacade.INSTANCE).close();
        Path dataFile = DatabaseLayout.dataFile(directory);
        byte[] leftover = Files.readAllBytes(dataFile);
        // What a kill before the creation's checkpoint leaves: everything but the control file.
        Files.delete(directory.resolve(ControlFile.FILE_NAME));

        try (Database database = Database.open(directory, new Properties(), NativeFilesFacade.INSTANCE)) {
            assertTrue(database.recoveryReport().created(), "opened as a new database");
        }
        assertTrue(Files.exists(directory.resolve(ControlFile.FILE_NAME)));
        List<Path> setAside;
        try (Stream<Path> incidents = Files.list(DatabaseLayout.damagedDirectory(directory))) {
            setAside = incidents.filter(path -> path.getFileName().toString().startsWith("unfinished-creation-")).toList();
        }
        assertEquals(1, setAside.size(), "one incident folder");
        Path kept = setAside.getFirst().resolve(directory.relativize(dataFile));
        assertArrayEquals(leftover, Files.readAllBytes(kept), "the leftover data file is kept byte for byte");
        assertTrue(Files.isDirectory(setAside.getFirst().resolve("wal")), "and the leftover log");
        try (Database database = Database.open(directory, new Properties(), NativeFilesFacade.INSTANCE)) {
            assertFalse(database.recoveryReport().created(), "the new database opens as itself afterwards");
        }
    }
}

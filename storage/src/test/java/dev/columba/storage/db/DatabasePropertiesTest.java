package dev.columba.storage.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.settings.StandardSettings;
import dev.columba.storage.io.NativeFilesFacade;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code columba.properties} (docs/format/database-directory.md): version 3 ends with a checksum
 * line, checked at every opening; versions 1 and 2 have none and are read as they are until the
 * file is next written. The golden files under {@code src/test/resources/format/database-directory/}
 * are a version-2 file as the version-2 writer wrote it and a version-3 file: this build must read
 * both, and write the version-3 file's bytes for its settings. If the writing test fails, the format
 * changed: bump the version, keep these files and add a new one ("History").
 */
class DatabasePropertiesTest {
    private static final String V2 = "/format/database-directory/v2/columba.properties";
    private static final String V3 = "/format/database-directory/v3/columba.properties";

    @TempDir
    Path directory;

    private static byte[] golden(String resource) throws IOException {
        try (InputStream input = DatabasePropertiesTest.class.getResourceAsStream(resource)) {
            assertNotNull(input, resource);
            return input.readAllBytes();
        }
    }

    private static Properties goldenSettings(int version) {
        Properties expected = new Properties();
        expected.setProperty("buffer_pool_size", "8MB");
        expected.setProperty("checkpoint_wal_size", "64MB");
        expected.setProperty("format_version", String.valueOf(version));
        expected.setProperty("page_size", "8192");
        return expected;
    }

    private static Properties small() {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "8MB");
        return properties;
    }

    private Path createAndClose() {
        try (Database ignored = Database.open(directory, small(), NativeFilesFacade.INSTANCE)) {
            // created, then closed cleanly
        }
        return DatabaseLayout.propertiesFile(directory);
    }

    @Test
    void version3FileReadsBackAndIsWrittenByteForByte() throws IOException {
        byte[] golden = golden(V3);
        Path file = directory.resolve(DatabaseLayout.PROPERTIES_FILE);
        Files.write(file, golden);

        assertEquals(goldenSettings(3), DatabaseProperties.readFile(file));
        assertArrayEquals(golden, DatabaseProperties.format(goldenSettings(3)));
        assertTrue(new String(golden, StandardCharsets.US_ASCII).endsWith("\nchecksum=4b2d258d\n"));
    }

    @Test
    void version2FileWithoutChecksumReads() throws IOException {
        Path file = directory.resolve(DatabaseLayout.PROPERTIES_FILE);
        Files.write(file, golden(V2));

        assertEquals(goldenSettings(2), DatabaseProperties.readFile(file));
    }

    /** Every byte of a version-3 file is covered: each of its one-bit flips is refused naming the file, which stays as it is. */
    @Test
    void everyOneBitFlipOfAVersion3FileIsRefusedNamingTheFile() throws IOException {
        byte[] golden = golden(V3);
        Path file = directory.resolve(DatabaseLayout.PROPERTIES_FILE);
        SealedFileFlips.assertEachRefused(golden, file, () -> DatabaseProperties.readFile(file));
    }

    /** A version-2 database opens; closing it does not rewrite its file; storing a setting writes version 3. */
    @Test
    void aVersion2DatabaseOpensAndIsUpgradedOnlyWhenItsSettingsAreWritten() throws IOException {
        Path file = createAndClose();
        byte[] version2 = golden(V2);
        Files.write(file, version2);

        try (Database database = Database.open(directory, new Properties(), NativeFilesFacade.INSTANCE)) {
            assertEquals(64L << 20, database.settings().get(StandardSettings.CHECKPOINT_WAL_SIZE));
        }
        assertArrayEquals(version2, Files.readAllBytes(file), "opening and closing leave a version-2 file as it is");

        try (Database database = Database.open(directory, new Properties(), NativeFilesFacade.INSTANCE)) {
            database.persistSetting("checkpoint_wal_size", "32MB");
        }
        Properties upgraded = DatabaseProperties.readFile(file);
        assertEquals("3", upgraded.getProperty("format_version"));
        assertEquals("8MB", upgraded.getProperty("buffer_pool_size"), "the version-2 file's settings are kept");
        assertEquals("32MB", upgraded.getProperty("checkpoint_wal_size"));
        assertTrue(Files.readString(file, StandardCharsets.UTF_8).lines().toList().getLast().startsWith("checksum="));
        try (Database database = Database.open(directory, new Properties(), NativeFilesFacade.INSTANCE)) {
            assertEquals(32L << 20, database.settings().get(StandardSettings.CHECKPOINT_WAL_SIZE));
        }
    }

    /**
     * A flip that still parses — 8MB read as 9MB — is refused at opening with the file named, and
     * nothing is rewritten, moved or deleted.
     */
    @Test
    void aDamagedValueRefusesTheOpeningAndLeavesTheFileAsItWas() throws IOException {
        Path file = createAndClose();
        byte[] damaged = flipInValue(file);

        SealedFileFlips.assertOpeningRefused(directory, file, damaged,
                () -> Database.open(directory, new Properties(), NativeFilesFacade.INSTANCE));
    }

    /** {@code ./columba repair --reseal-properties}: the damaged file kept in damaged/, its settings listed and sealed. */
    @Test
    void resealKeepsTheDamagedFileAndWritesItsSettingsWithANewChecksum() throws IOException {
        Path file = createAndClose();
        byte[] damaged = flipInValue(file);

        String done = DatabaseProperties.reseal(directory, NativeFilesFacade.INSTANCE);

        assertTrue(done.contains("buffer_pool_size = 9MB"), done);
        assertEquals("9MB", DatabaseProperties.readFile(file).getProperty("buffer_pool_size"));
        List<Path> kept;
        try (Stream<Path> walk = Files.walk(DatabaseLayout.damagedDirectory(directory))) {
            kept = walk.filter(path -> path.getFileName().toString().equals(DatabaseLayout.PROPERTIES_FILE)).toList();
        }
        assertEquals(1, kept.size(), kept::toString);
        assertTrue(kept.getFirst().getParent().getFileName().toString().startsWith("properties-columba-"), kept::toString);
        assertArrayEquals(damaged, Files.readAllBytes(kept.getFirst()));
        assertTrue(Files.readString(kept.getFirst().resolveSibling("report.txt")).contains("checksum"));
        try (Database database = Database.open(directory, new Properties(), NativeFilesFacade.INSTANCE)) {
            assertEquals(9L << 20, database.settings().get(StandardSettings.BUFFER_POOL_SIZE));
        }

        byte[] sound = Files.readAllBytes(file);
        assertTrue(DatabaseProperties.reseal(directory, NativeFilesFacade.INSTANCE).contains("nothing was changed"));
        assertArrayEquals(sound, Files.readAllBytes(file));
    }

    @Test
    void resealRefusesAnOpenDatabaseAndAFileThatDoesNotParse() throws IOException {
        Path file = createAndClose();
        try (Database ignored = Database.open(directory, new Properties(), NativeFilesFacade.INSTANCE)) {
            assertEquals(ErrorCode.DATABASE_IN_USE, assertThrows(ColumbaException.class,
                    () -> DatabaseProperties.reseal(directory, NativeFilesFacade.INSTANCE)).errorCode());
        }
        String text = Files.readString(file, StandardCharsets.UTF_8);
        byte[] unreadable = text.replace("format_version=3", "format_version=x").getBytes(StandardCharsets.UTF_8);
        Files.write(file, unreadable);

        ColumbaException refused = assertThrows(ColumbaException.class,
                () -> DatabaseProperties.reseal(directory, NativeFilesFacade.INSTANCE));

        assertEquals(ErrorCode.FILE_MAGIC_MISMATCH, refused.errorCode(), refused::getMessage);
        assertArrayEquals(unreadable, Files.readAllBytes(file));
        assertFalse(Files.exists(DatabaseLayout.damagedDirectory(directory)));
    }

    /** The "IO_ERROR ... Input length = 1": a version-2 file that is not UTF-8 is named, as corruption. */
    @Test
    void aVersion2FileThatIsNotUtf8IsNamed() throws IOException {
        Path file = directory.resolve(DatabaseLayout.PROPERTIES_FILE);
        byte[] bytes = golden(V2);
        bytes[bytes.length - 2] = (byte) 0xB2;
        Files.write(file, bytes);

        ColumbaException refused = assertThrows(ColumbaException.class, () -> DatabaseProperties.readFile(file));

        assertEquals(ErrorCode.FILE_MAGIC_MISMATCH, refused.errorCode(), refused::getMessage);
        assertTrue(refused.detail().startsWith(file + " is not UTF-8 text"), refused.getMessage());
    }

    /** Flips bit 0 of the '8' in {@code buffer_pool_size=8MB}: the file still parses, as 9MB. */
    private static byte[] flipInValue(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        int at = new String(bytes, StandardCharsets.ISO_8859_1).indexOf("buffer_pool_size=8MB") + "buffer_pool_size=".length();
        assertTrue(at >= "buffer_pool_size=".length());
        bytes[at] ^= 1;
        Files.write(file, bytes);
        return bytes;
    }
}

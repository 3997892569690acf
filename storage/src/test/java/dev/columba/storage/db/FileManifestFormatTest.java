package dev.columba.storage.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.file.FileManifest;
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
 * {@code data/files.properties} (docs/format/database-directory.md, "Files and filegroups"): manifest
 * version 2 ends with a checksum line, checked at every opening before the text is parsed; version 1
 * has none and is read as it is until a filegroup or file is next added. The golden files under
 * {@code src/test/resources/format/database-directory/manifest-v1/} and {@code manifest-v2/} list the
 * same filegroups and files, as the version-1 writer and this build write them: this build must read
 * both, and write the version-2 file's bytes. If the writing test fails, the format changed: bump the
 * version, keep these files and add a new one ("History").
 */
class FileManifestFormatTest {
    private static final String V1 = "/format/database-directory/manifest-v1/files.properties";
    private static final String V2 = "/format/database-directory/manifest-v2/files.properties";

    /** What both golden files list. */
    private static final FileManifest GOLDEN = new FileManifest(
            List.of(new FileManifest.Filegroup(0, FileManifest.PRIMARY), new FileManifest.Filegroup(1, "fg"),
                    new FileManifest.Filegroup(2, "archive")),
            List.of(new FileManifest.FileEntry(1, "f1", 1, "fg1.data"),
                    new FileManifest.FileEntry(2, "f2", 2, "data/archive 2.data")));

    @TempDir
    Path directory;

    private static byte[] golden(String resource) throws IOException {
        try (InputStream input = FileManifestFormatTest.class.getResourceAsStream(resource)) {
            assertNotNull(input, resource);
            return input.readAllBytes();
        }
    }

    private Path dataDirectory() throws IOException {
        return Files.createDirectories(DatabaseLayout.dataDirectory(directory));
    }

    @Test
    void version2FileReadsBackAndIsWrittenByteForByte() throws IOException {
        byte[] golden = golden(V2);
        Files.write(dataDirectory().resolve(FileManifest.FILE_NAME), golden);

        assertEquals(GOLDEN, FileManifest.read(dataDirectory()));
        Path written = Files.createDirectories(directory.resolve("written"));
        GOLDEN.write(NativeFilesFacade.INSTANCE, written);
        assertArrayEquals(golden, Files.readAllBytes(written.resolve(FileManifest.FILE_NAME)));
        assertTrue(new String(golden, StandardCharsets.US_ASCII).contains("\nformat_version=2\n"));
    }

    @Test
    void version1FileWithoutChecksumReads() throws IOException {
        Files.write(dataDirectory().resolve(FileManifest.FILE_NAME), golden(V1));

        assertEquals(GOLDEN, FileManifest.read(dataDirectory()));
    }

    /** Every byte of a version-2 file is covered: each of its one-bit flips is refused naming the file, which stays as it is. */
    @Test
    void everyOneBitFlipOfAVersion2FileIsRefusedNamingTheFile() throws IOException {
        byte[] golden = golden(V2);
        Path file = dataDirectory().resolve(FileManifest.FILE_NAME);
        SealedFileFlips.assertEachRefused(golden, file, () -> FileManifest.read(dataDirectory()));
    }

    /** A database with a version-1 manifest opens and closes leaving it as it is; the next ADD FILEGROUP writes version 2. */
    @Test
    void aVersion1ManifestOpensAndIsUpgradedWhenAFilegroupIsNextAdded() throws IOException {
        Path file = withFilegroup();
        byte[] version1 = ("# Columba filegroups and files (docs/format/database-directory.md)\nformat_version=1\n"
                + "filegroup.1=fg\nfile.1.name=f1\nfile.1.filegroup=1\nfile.1.path=fg1.data\n").getBytes(StandardCharsets.UTF_8);
        Files.write(file, version1);

        try (Database database = Database.open(directory, small(), NativeFilesFacade.INSTANCE)) {
            assertEquals("fg", database.files().filegroup(1).name());
        }
        assertArrayEquals(version1, Files.readAllBytes(file), "opening and closing leave a version-1 manifest as it is");

        try (Database database = Database.open(directory, small(), NativeFilesFacade.INSTANCE)) {
            database.addFilegroup("more");
        }
        String upgraded = Files.readString(file, StandardCharsets.UTF_8);
        assertTrue(upgraded.contains("\nformat_version=2\n"), upgraded);
        assertTrue(upgraded.lines().toList().getLast().startsWith("checksum="), upgraded);
        FileManifest read = FileManifest.read(file.getParent());
        assertEquals(List.of("PRIMARY", "fg", "more"), read.filegroups().stream().map(FileManifest.Filegroup::name).toList());
        assertEquals(List.of(new FileManifest.FileEntry(1, "f1", 1, "fg1.data")), read.files());
    }

    /**
     * A flip in a filegroup's name still parses and no data file's header contradicts it (before
     * version 2 the database opened with the filegroup renamed); now the opening is refused with the
     * file named, and nothing is rewritten, moved or deleted.
     */
    @Test
    void aFlippedFilegroupNameRefusesTheOpeningAndLeavesTheFileAsItWas() throws IOException {
        Path file = withFilegroup();
        byte[] damaged = flipInFilegroupName(file);

        SealedFileFlips.assertOpeningRefused(directory, file, damaged,
                () -> Database.open(directory, small(), NativeFilesFacade.INSTANCE));
    }

    /** {@code ./columba repair --reseal-properties}: the damaged manifest kept in damaged/, what it lists printed and sealed. */
    @Test
    void resealKeepsTheDamagedManifestAndWritesWhatItListsWithANewChecksum() throws IOException {
        Path file = withFilegroup();
        byte[] settings = Files.readAllBytes(DatabaseLayout.propertiesFile(directory));
        byte[] damaged = flipInFilegroupName(file);

        String done = DatabaseProperties.reseal(directory, NativeFilesFacade.INSTANCE);

        assertTrue(done.contains(DatabaseLayout.propertiesFile(directory) + " is sound"), done);
        assertArrayEquals(settings, Files.readAllBytes(DatabaseLayout.propertiesFile(directory)), "a sound file is left alone");
        assertTrue(done.contains("filegroup 1 = ff"), done);
        assertEquals("ff", FileManifest.read(file.getParent()).filegroup(1).name());
        List<Path> kept;
        try (Stream<Path> walk = Files.walk(DatabaseLayout.damagedDirectory(directory))) {
            kept = walk.filter(path -> path.getFileName().toString().equals(FileManifest.FILE_NAME)).toList();
        }
        assertEquals(1, kept.size(), kept::toString);
        assertTrue(kept.getFirst().getParent().getFileName().toString().startsWith("properties-files-"), kept::toString);
        assertArrayEquals(damaged, Files.readAllBytes(kept.getFirst()));
        assertTrue(Files.readString(kept.getFirst().resolveSibling("report.txt")).contains("checksum"));
        try (Database database = Database.open(directory, small(), NativeFilesFacade.INSTANCE)) {
            assertEquals("ff", database.files().filegroup(1).name());
        }

        byte[] sound = Files.readAllBytes(file);
        assertTrue(DatabaseProperties.reseal(directory, NativeFilesFacade.INSTANCE).contains(file + " is sound"));
        assertArrayEquals(sound, Files.readAllBytes(file));
    }

    @Test
    void resealRefusesAManifestThatDoesNotParse() throws IOException {
        Path file = withFilegroup();
        String text = Files.readString(file, StandardCharsets.UTF_8);
        byte[] unreadable = text.replace("file.1.filegroup=1", "file.1.filegroup=x").getBytes(StandardCharsets.UTF_8);
        Files.write(file, unreadable);

        ColumbaException refused = assertThrows(ColumbaException.class,
                () -> DatabaseProperties.reseal(directory, NativeFilesFacade.INSTANCE));

        assertEquals(ErrorCode.FILE_MAGIC_MISMATCH, refused.errorCode(), refused::getMessage);
        assertArrayEquals(unreadable, Files.readAllBytes(file));
        assertFalse(Files.exists(DatabaseLayout.damagedDirectory(directory)));
    }

    private static Properties small() {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "8MB");
        return properties;
    }

    /** A closed database with filegroup {@code fg} of one file, {@code fg1.data}; returns its manifest. */
    private Path withFilegroup() {
        try (Database database = Database.open(directory, small(), NativeFilesFacade.INSTANCE)) {
            database.addFilegroup("fg");
            database.addFile("f1", "fg1.data", "fg");
        }
        return DatabaseLayout.fileManifest(directory);
    }

    /** Flips bit 0 of the 'g' in {@code filegroup.1=fg}: the file still parses, the filegroup named "ff". */
    private static byte[] flipInFilegroupName(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        int at = new String(bytes, StandardCharsets.ISO_8859_1).indexOf("filegroup.1=fg\n") + "filegroup.1=f".length();
        assertTrue(at >= "filegroup.1=f".length());
        bytes[at] ^= 1;
        Files.write(file, bytes);
        return bytes;
    }
}

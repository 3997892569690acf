package dev.columba.storage.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins the data file header of format version 2 (a file added to a filegroup) byte for byte, reads a
 * version-1 header (a primary file as earlier builds wrote it), and checks the errors for a file
 * listed under the wrong id and for a version from the future (docs/format/data-file.md); and pins
 * the text of the files manifest (docs/format/database-directory.md).
 */
class DataFileGoldenTest {
    private static final UUID DATABASE = new UUID(0x0102030405060708L, 0x090a0b0c0d0e0f10L);

    /** Bytes 4..111 of the header page of file 3 (after the checksum): page header, then the body. */
    /**
     * Bytes 4..111 of the header page of file 3 (after the checksum): page type 1, page format 1,
     * page id 3 << 28, free start 64; then magic "CLMBDATA", version 2, page size 8192, the database
     * id, creation time 1234 and file id 3.
     */
    private static final String VERSION_2_HEADER =
            "010100000000003000000000000000000000000000000000000000004000"
            + "000000000000000000000000000000000000000000000000000000000000"
            + "434c4d424441544102000000002000000807060504030201100f0e0d0c0b"
            + "0a09d2040000000000000300000000000000";

    @TempDir
    Path directory;

    @Test
    void aVersionTwoHeaderIsPinned() throws IOException {
        Path path = directory.resolve("f3.data");
        DataFile.create(NativeFilesFacade.INSTANCE, path, DATABASE, 3, 1234, false).close();
        byte[] page = Arrays.copyOf(Files.readAllBytes(path), PageFormat.PAGE_SIZE);
        assertEquals(VERSION_2_HEADER, HexFormat.of().formatHex(page, 4, 112));
        try (DataFile file = DataFile.open(NativeFilesFacade.INSTANCE, path, 3, false)) {
            assertEquals(3, file.fileId());
            assertEquals(DATABASE, file.databaseId());
        }
        ColumbaException wrongId = assertThrows(ColumbaException.class,
                () -> DataFile.open(NativeFilesFacade.INSTANCE, path, 4, false));
        assertEquals(ErrorCode.FILE_MAGIC_MISMATCH, wrongId.errorCode());
    }

    @Test
    void aVersionOneHeaderReadsAsThePrimaryFile() throws IOException {
        Path path = directory.resolve("columba.data");
        DataFile.create(NativeFilesFacade.INSTANCE, path, DATABASE, 1234, false).close();
        byte[] bytes = Files.readAllBytes(path);
        ByteBuffer header = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(1, header.getInt(DataFileFormat.HEADER_VERSION_OFFSET), "the primary file is still written as version 1");
        assertEquals(0, header.getInt(DataFileFormat.HEADER_FILE_ID_OFFSET));
        try (DataFile file = DataFile.open(NativeFilesFacade.INSTANCE, path, 0, false)) {
            assertEquals(0, file.fileId());
        }
        assertEquals(ErrorCode.FILE_MAGIC_MISMATCH, assertThrows(ColumbaException.class,
                () -> DataFile.open(NativeFilesFacade.INSTANCE, path, 1, false)).errorCode(),
                "a version-1 file can only be the primary file");
    }

    @Test
    void aVersionFromTheFutureIsRefused() throws IOException {
        Path path = directory.resolve("f1.data");
        DataFile.create(NativeFilesFacade.INSTANCE, path, DATABASE, 1, 1234, false).close();
        byte[] bytes = Files.readAllBytes(path);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(DataFileFormat.HEADER_VERSION_OFFSET, 3);
        java.lang.foreign.MemorySegment page = java.lang.foreign.MemorySegment.ofArray(bytes).asSlice(0, PageFormat.PAGE_SIZE);
        Page.updateChecksum(page);
        Files.write(path, bytes);
        assertEquals(ErrorCode.FORMAT_TOO_NEW, assertThrows(ColumbaException.class,
                () -> DataFile.open(NativeFilesFacade.INSTANCE, path, 1, false)).errorCode());
    }

    @Test
    void pageIdsCarryTheFileId() {
        long pageId = PageFormat.pageId(5, 17);
        assertEquals(5, PageFormat.fileOf(pageId));
        assertEquals(17, PageFormat.pageInFile(pageId));
        assertEquals(17L * PageFormat.PAGE_SIZE, PageFormat.offsetOf(pageId));
        long extent = PageFormat.extentOf(pageId);
        assertEquals(5, DataFileFormat.fileOfExtent(extent));
        assertEquals(PageFormat.pageId(5, DataFileFormat.FIRST_GAM_PAGE), DataFileFormat.gamPageFor(extent));
        assertEquals(0xFFFF_FFFFL, PageFormat.extentOf(PageFormat.pageId(PageFormat.MAX_FILES - 1,
                PageFormat.PAGE_IN_FILE_MASK)), "the last extent of the last file still fits an allocation map's u32");
    }

    @Test
    void theManifestIsPinnedAndReadBack() throws IOException {
        FileManifest manifest = FileManifest.primaryOnly().withFilegroup("fg").withFile("f1", 1, "fg/f1.data")
                .withFile("f2", 1, "/abs=path/f2.data");
        manifest.write(NativeFilesFacade.INSTANCE, directory);
        assertEquals(List.of(
                "# Columba filegroups and files (docs/format/database-directory.md). The last line is a CRC32C of",
                "# every byte before it, checked at every opening: change them with ALTER DATABASE, not by editing this file.",
                "format_version=2",
                "filegroup.1=fg",
                "file.1.name=f1",
                "file.1.filegroup=1",
                "file.1.path=fg/f1.data",
                "file.2.name=f2",
                "file.2.filegroup=1",
                "file.2.path=/abs\\=path/f2.data",
                "checksum=6c618cc3"), Files.readAllLines(directory.resolve(FileManifest.FILE_NAME)));
        assertEquals(manifest, FileManifest.read(directory));
        Files.writeString(directory.resolve(FileManifest.FILE_NAME), "format_version=3\n");
        assertEquals(ErrorCode.FORMAT_TOO_NEW, assertThrows(ColumbaException.class, () -> FileManifest.read(directory))
                .errorCode());
        Files.writeString(directory.resolve(FileManifest.FILE_NAME), "format_version=1\nfile.1.name=f\nfile.1.filegroup=7\n");
        assertEquals(ErrorCode.FILE_MAGIC_MISMATCH, assertThrows(ColumbaException.class, () -> FileManifest.read(directory))
                .errorCode());
    }
}

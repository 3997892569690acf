package dev.columba.columnstore.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.dictionary.DictionaryBuilder;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import dev.columba.storage.io.NativeFilesFacade;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The primary dictionary file (docs/format/dictionary-file.md): the golden files of each version
 * under {@code format/dictionary-file/}, this build's bytes for the same dictionary, and a damaged
 * file of each kind failing with its own error, naming the file, the offset and the value.
 */
class DictionaryFileTest {
    private static final SqlType TYPE = SqlType.varchar(10);
    private static final List<String> VALUES = List.of("north", "east", "south", "west", "centre");
    private static final Path ORIGIN = Path.of("/db/columnstore/100/dict-1.cdict");

    @TempDir
    Path directory;

    private static byte[] golden(String name) throws IOException {
        try (InputStream in = DictionaryFileTest.class.getResourceAsStream("/format/dictionary-file/" + name)) {
            if (in == null) {
                throw new IOException("missing golden file " + name);
            }
            return in.readAllBytes();
        }
    }

    /** The primary dictionary of the golden files: five regions, id 0. */
    private static Dictionary regions() {
        DictionaryBuilder builder = DictionaryBuilder.primary(TYPE, DictionaryBuilder.DEFAULT_CAP_BYTES);
        VALUES.forEach(builder::tryAdd);
        return builder.freeze(0);
    }

    private static List<Object> values(Dictionary dictionary) {
        List<Object> values = new ArrayList<>();
        for (int index = 0; index < dictionary.entryCount(); index++) {
            values.add(dictionary.value(index));
        }
        return values;
    }

    private static ColumbaException failure(byte[] file) {
        return assertThrows(ColumbaException.class, () -> DictionaryFile.read(MemorySegment.ofArray(file), ORIGIN, TYPE));
    }

    private static void assertFails(byte[] file, ErrorCode code, String message) {
        ColumbaException error = failure(file);
        assertEquals(code, error.errorCode(), error.getMessage());
        assertEquals("[" + code + "] dictionary file " + ORIGIN + " " + message, error.getMessage());
    }

    @Test
    void versionTwoGoldenFileReadsAndIsWhatThisBuildWrites() throws IOException {
        byte[] bytes = golden("v2/dict-1.cdict");
        Dictionary read = DictionaryFile.read(MemorySegment.ofArray(bytes), ORIGIN, TYPE);
        assertEquals(List.of("centre", "east", "north", "south", "west"), values(read));
        Path written = directory.resolve(ColumnstoreFiles.dictionaryFileName(1));
        Dictionary regions = regions();
        assertEquals(DictionaryFileFormat.HEADER_SIZE + regions.sizeBytes(),
                DictionaryFile.write(NativeFilesFacade.INSTANCE, written, regions.bytes()));
        assertArrayEquals(bytes, Files.readAllBytes(written));
        assertTrue(Files.notExists(ColumnstoreFiles.temporaryFile(written)), "the temporary file was renamed");
    }

    @Test
    void versionOneFileIsTooOld() throws IOException {
        byte[] bytes = golden("v1/dict-1.cdict");
        assertArrayEquals(regions().toBytes(), bytes, "version 1 was the bare dictionary");
        assertFails(bytes, ErrorCode.FORMAT_TOO_OLD, "(offset 0) is format version 1, a bare dictionary without a"
                + " checksum (it starts with the dictionary magic \"CDIC\"); this build reads versions 2 to 2");
    }

    @Test
    void eachKindOfDamageHasItsOwnError() throws IOException {
        byte[] good = golden("v2/dict-1.cdict");
        ByteBuffer header = ByteBuffer.wrap(good).order(ByteOrder.LITTLE_ENDIAN);
        int storedCrc = header.getInt(DictionaryFileFormat.HEADER_CRC);

        byte[] newer = good.clone();
        newer[DictionaryFileFormat.HEADER_VERSION] = 3;
        assertFails(newer, ErrorCode.FORMAT_TOO_NEW, "(offset 8) has format version 3, newer than this build reads (2)");

        byte[] older = good.clone();
        older[DictionaryFileFormat.HEADER_VERSION] = 0;
        assertFails(older, ErrorCode.FORMAT_TOO_OLD, "(offset 8) has format version 0; this build reads versions 2 to 2");

        byte[] foreign = good.clone();
        foreign[0] = 'X';
        assertFails(foreign, ErrorCode.FILE_MAGIC_MISMATCH, "(offset 0) has magic 0x54434944424d4c58, not a dictionary"
                + " file (\"CLMBDICT\" is 0x54434944424d4c43)");

        assertFails(Arrays.copyOf(good, 20), ErrorCode.FILE_TRUNCATED, "(offset 0) is 20 bytes, shorter than its 24-byte"
                + " header");

        ColumbaException cut = failure(Arrays.copyOf(good, good.length - 3));
        assertEquals(ErrorCode.FILE_TRUNCATED, cut.errorCode(), cut.getMessage());
        assertTrue(cut.getMessage().startsWith("[FILE_TRUNCATED] dictionary file " + ORIGIN + " (offset 16) gives a"
                + " dictionary of " + (good.length - 24) + " bytes, but the file has " + (good.length - 27)), cut.getMessage());

        byte[] longerLength = good.clone();
        longerLength[DictionaryFileFormat.HEADER_DICTIONARY_LENGTH] ^= 0x10;
        assertFails(longerLength, ErrorCode.FILE_TRUNCATED, String.format("(offset 16) gives a dictionary of %d bytes, but"
                + " the file has %d after its header and its checksum 0x%08x does not match (computed 0x%08x): the file is cut"
                + " short, or the length damaged", good.length - 24 + 0x10, good.length - 24, storedCrc,
                ColumnstoreChecksum.of(longerLength, 16, longerLength.length - 16)));

        for (int offset = DictionaryFileFormat.HEADER_SIZE; offset < good.length; offset += 7) {
            byte[] flipped = good.clone();
            flipped[offset] ^= 0x10;
            ColumbaException error = failure(flipped);
            assertEquals(ErrorCode.PAGE_CHECKSUM_MISMATCH, error.errorCode(), "byte " + offset + ": " + error.getMessage());
            assertTrue(error.getMessage().startsWith("[PAGE_CHECKSUM_MISMATCH] dictionary file " + ORIGIN
                    + " (offset 12) has a corrupt dictionary: checksum " + String.format("0x%08x", storedCrc)
                    + ", computed 0x"), "byte " + offset + ": " + error.getMessage());
        }

        // A writer's bug: a length that does not fill the file, under a checksum that holds.
        byte[] longer = Arrays.copyOf(good, good.length + 1);
        int from = DictionaryFileFormat.HEADER_CHECKED_FROM;
        ByteBuffer.wrap(longer).order(ByteOrder.LITTLE_ENDIAN).putInt(DictionaryFileFormat.HEADER_CRC,
                ColumnstoreChecksum.of(longer, from, longer.length - from));
        assertFails(longer, ErrorCode.INDEX_CORRUPT, "(offset 16) gives a dictionary of " + (good.length - 24)
                + " bytes, but the file has " + (good.length - 23) + " after its header");
    }

    @Test
    void damageTheChecksumCannotSeeIsTheDictionarysToFind() throws IOException {
        byte[] swapped = golden("v2/dict-1.cdict");
        // 'centre' becomes 'zentre', after every other entry; the checksum stamped again over it.
        int dataStart = DictionaryFileFormat.HEADER_SIZE + 24 + 4 * VALUES.size();
        swapped[dataStart] = 'z';
        int from = DictionaryFileFormat.HEADER_CHECKED_FROM;
        ByteBuffer.wrap(swapped).order(ByteOrder.LITTLE_ENDIAN).putInt(DictionaryFileFormat.HEADER_CRC,
                ColumnstoreChecksum.of(swapped, from, swapped.length - from));
        ColumbaException error = failure(swapped);
        assertEquals(ErrorCode.INDEX_CORRUPT, error.errorCode(), error.getMessage());
        assertEquals("[INDEX_CORRUPT] " + ORIGIN + " (dictionary at offset 24): dictionary entry 1 at offset 50 does not"
                + " sort after entry 0", error.getMessage());
    }
}

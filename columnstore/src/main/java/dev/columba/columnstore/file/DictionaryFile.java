package dev.columba.columnstore.file;

import static dev.columba.columnstore.file.DictionaryFileFormat.HEADER_CHECKED_FROM;
import static dev.columba.columnstore.file.DictionaryFileFormat.HEADER_CRC;
import static dev.columba.columnstore.file.DictionaryFileFormat.HEADER_DICTIONARY_LENGTH;
import static dev.columba.columnstore.file.DictionaryFileFormat.HEADER_MAGIC;
import static dev.columba.columnstore.file.DictionaryFileFormat.HEADER_SIZE;
import static dev.columba.columnstore.file.DictionaryFileFormat.HEADER_VERSION;
import static dev.columba.columnstore.file.DictionaryFileFormat.MAGIC;
import static dev.columba.columnstore.file.DictionaryFileFormat.OLDEST_READABLE_VERSION;
import static dev.columba.columnstore.file.DictionaryFileFormat.VERSION;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.dictionary.DictionaryFormat;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.Checksum;

/**
 * The primary dictionary file (docs/format/dictionary-file.md): one dictionary behind a header with
 * its checksum. Writing is durable and atomic (temporary name, forced, renamed, directory synced);
 * reading checks a file's bytes, wherever they were read from, before the dictionary package reads
 * the dictionary they hold.
 */
public final class DictionaryFile {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private DictionaryFile() {
    }

    /**
     * Writes {@code dictionary}'s bytes to {@code target} as a dictionary file, replacing any file
     * there; the file exists whole and durable, or not at all.
     *
     * @return the file's size in bytes
     */
    public static long write(FilesFacade files, Path target, MemorySegment dictionary) {
        Path temporary = ColumnstoreFiles.temporaryFile(target);
        try (Arena arena = Arena.ofConfined();
             FileHandle file = files.open(temporary, FilesFacade.OpenMode.CREATE, false)) {
            file.truncate(0);
            MemorySegment header = arena.allocate(HEADER_SIZE);
            header.set(LONG, HEADER_MAGIC, MAGIC);
            header.set(INT, HEADER_VERSION, VERSION);
            header.set(LONG, HEADER_DICTIONARY_LENGTH, dictionary.byteSize());
            Checksum checksum = ColumnstoreChecksum.newChecksum();
            checksum.update(header.asSlice(HEADER_CHECKED_FROM).asByteBuffer());
            checksum.update(dictionary.asByteBuffer());
            header.set(INT, HEADER_CRC, ColumnstoreChecksum.value(checksum));
            file.write(0, header);
            if (dictionary.byteSize() > 0) {
                file.write(HEADER_SIZE, dictionary);
            }
            file.force(true);
        }
        try {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot move " + temporary + " to " + target + ": " + e, e);
        }
        files.syncDirectory(target.toAbsolutePath().getParent());
        return HEADER_SIZE + dictionary.byteSize();
    }

    /**
     * Reads the dictionary file at {@code path} from its bytes {@code file} (wherever they were read
     * from): checks size, magic, version, length and checksum, then reads the dictionary, a
     * dictionary of values of {@code type} that keeps a slice of {@code file}. The checksum covers
     * every byte the dictionary keeps, so callers pass a copy, not a mapping that could change
     * under the check.
     *
     * @throws ColumbaException naming the file, the offset and the value: FORMAT_TOO_OLD for a
     *     version-1 file (a bare dictionary, which starts with the dictionary magic) or a version
     *     below 2, FORMAT_TOO_NEW above 2, FILE_MAGIC_MISMATCH, FILE_TRUNCATED for a file shorter
     *     than its header or than the length it gives, PAGE_CHECKSUM_MISMATCH when the bytes are
     *     not the ones written, INDEX_CORRUPT for a length that checks but does not fill the file
     *     (a writer's bug); then the dictionary's own
     *     errors ({@link Dictionary#read}), whose offsets count from the dictionary's first byte
     */
    public static Dictionary read(MemorySegment file, Path path, SqlType type) {
        return Dictionary.read(dictionary(file, path), type, path + " (dictionary at offset " + HEADER_SIZE + ")");
    }

    /** The dictionary's bytes in a dictionary file's, once the file checks ({@link #read}). */
    static MemorySegment dictionary(MemorySegment file, Path path) {
        long size = file.byteSize();
        if (size >= Integer.BYTES && file.get(INT, 0) == DictionaryFormat.MAGIC) {
            throw corrupt(ErrorCode.FORMAT_TOO_OLD, path, 0, "is format version 1, a bare dictionary without a checksum"
                    + " (it starts with the dictionary magic \"CDIC\"); this build reads versions " + OLDEST_READABLE_VERSION
                    + " to " + VERSION);
        }
        if (size < HEADER_SIZE) {
            throw corrupt(ErrorCode.FILE_TRUNCATED, path, 0, "is " + size + " bytes, shorter than its " + HEADER_SIZE
                    + "-byte header");
        }
        long magic = file.get(LONG, HEADER_MAGIC);
        if (magic != MAGIC) {
            throw corrupt(ErrorCode.FILE_MAGIC_MISMATCH, path, HEADER_MAGIC, String.format(
                    "has magic 0x%016x, not a dictionary file (\"CLMBDICT\" is 0x%016x)", magic, MAGIC));
        }
        int version = file.get(INT, HEADER_VERSION);
        if (Integer.compareUnsigned(version, VERSION) > 0) {
            throw corrupt(ErrorCode.FORMAT_TOO_NEW, path, HEADER_VERSION, "has format version "
                    + Integer.toUnsignedString(version) + ", newer than this build reads (" + VERSION + ")");
        }
        if (version < OLDEST_READABLE_VERSION) {
            throw corrupt(ErrorCode.FORMAT_TOO_OLD, path, HEADER_VERSION, "has format version " + version
                    + "; this build reads versions " + OLDEST_READABLE_VERSION + " to " + VERSION);
        }
        long length = file.get(LONG, HEADER_DICTIONARY_LENGTH);
        long available = size - HEADER_SIZE;
        int stored = file.get(INT, HEADER_CRC);
        int computed = ColumnstoreChecksum.of(file.asSlice(HEADER_CHECKED_FROM));
        if (stored != computed) {
            // The checksum covers the length too, so a file cut short and a damaged length both fail it.
            if (Long.compareUnsigned(length, available) > 0) {
                throw corrupt(ErrorCode.FILE_TRUNCATED, path, HEADER_DICTIONARY_LENGTH, String.format(
                        "gives a dictionary of %s bytes, but the file has %d after its header and its checksum 0x%08x"
                        + " does not match (computed 0x%08x): the file is cut short, or the length damaged",
                        Long.toUnsignedString(length),
                        available, stored, computed));
            }
            throw corrupt(ErrorCode.PAGE_CHECKSUM_MISMATCH, path, HEADER_CRC, String.format(
                    "has a corrupt dictionary: checksum 0x%08x, computed 0x%08x", stored, computed));
        }
        if (length != available) {
            throw corrupt(ErrorCode.INDEX_CORRUPT, path, HEADER_DICTIONARY_LENGTH, "gives a dictionary of "
                    + Long.toUnsignedString(length) + " bytes, but the file has " + available + " after its header");
        }
        return file.asSlice(HEADER_SIZE, length);
    }

    private static ColumbaException corrupt(ErrorCode code, Path path, long offset, String problem) {
        return new ColumbaException(code, "dictionary file " + path + " (offset " + offset + ") " + problem);
    }
}

package dev.columba.storage.db;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * The database's control file (docs/format/control.md): where recovery starts. Rewritten whole at
 * every checkpoint, atomically (a new file, fsync, rename over the old one, fsync of the
 * directory), so a crash leaves either the old or the new checkpoint, never half of one.
 *
 * @param checkpointLsn     LSN of the last completed checkpoint record
 * @param redoLsn           where recovery starts replaying the log
 * @param nextTransactionId the first transaction id not yet used
 */
public record ControlFile(UUID databaseId, long checkpointLsn, long redoLsn, long nextTransactionId) {
    public static final String FILE_NAME = "control";
    /** "CLMBCTRL" in ASCII, little-endian. */
    public static final long MAGIC = 0x4c525443424d4c43L;
    public static final int VERSION = 1;
    static final int SIZE = 56;

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Writes the control file into {@code directory}, replacing the previous one atomically. */
    public void write(FilesFacade files, Path directory) {
        Path temporary = directory.resolve(FILE_NAME + ".tmp");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bytes = arena.allocate(SIZE);
            bytes.set(LONG, 0, MAGIC);
            bytes.set(INT, 8, VERSION);
            bytes.set(INT, 12, 0);
            bytes.set(LONG, 16, databaseId.getMostSignificantBits());
            bytes.set(LONG, 24, databaseId.getLeastSignificantBits());
            bytes.set(LONG, 32, checkpointLsn);
            bytes.set(LONG, 40, redoLsn);
            bytes.set(LONG, 48, nextTransactionId);
            MemorySegment withCrc = arena.allocate(SIZE + 4);
            MemorySegment.copy(bytes, 0, withCrc, 0, SIZE);
            withCrc.set(INT, SIZE, crc(bytes));
            try (FileHandle file = files.open(temporary, FilesFacade.OpenMode.CREATE, false)) {
                file.truncate(0);
                file.write(0, withCrc);
                file.force(true);
            }
        }
        try {
            Files.move(temporary, directory.resolve(FILE_NAME), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot replace " + directory.resolve(FILE_NAME) + ": " + e, e);
        }
        files.syncDirectory(directory);
    }

    /**
     * Reads the control file of {@code directory}.
     *
     * @throws ColumbaException FILE_MAGIC_MISMATCH, FORMAT_TOO_OLD/NEW, FILE_TRUNCATED or
     *         PAGE_CHECKSUM_MISMATCH naming the file and the value found
     */
    public static ControlFile read(FilesFacade files, Path directory) {
        Path path = directory.resolve(FILE_NAME);
        try (Arena arena = Arena.ofConfined();
             FileHandle file = files.open(path, FilesFacade.OpenMode.READ, false)) {
            MemorySegment bytes = arena.allocate(SIZE + 4);
            long read = file.read(0, bytes);
            if (read < SIZE + 4) {
                throw new ColumbaException(ErrorCode.FILE_TRUNCATED, "control file " + path + " is " + read
                        + " bytes long, expected " + (SIZE + 4));
            }
            long magic = bytes.get(LONG, 0);
            if (magic != MAGIC) {
                throw new ColumbaException(ErrorCode.FILE_MAGIC_MISMATCH, String.format(
                        "%s is not a Columba control file: magic at offset 0 is 0x%016x", path, magic));
            }
            int version = bytes.get(INT, 8);
            if (version > VERSION) {
                throw new ColumbaException(ErrorCode.FORMAT_TOO_NEW, "control file " + path + " has format version "
                        + version + ", newer than this build (" + VERSION + ")");
            }
            if (version < 1) {
                throw new ColumbaException(ErrorCode.FORMAT_TOO_OLD, "control file " + path + " has format version " + version);
            }
            int stored = bytes.get(INT, SIZE);
            int computed = crc(bytes.asSlice(0, SIZE));
            if (stored != computed) {
                throw new ColumbaException(ErrorCode.PAGE_CHECKSUM_MISMATCH, String.format(
                        "control file %s is corrupt: checksum at offset %d is 0x%08x, computed 0x%08x", path, SIZE, stored, computed));
            }
            return new ControlFile(new UUID(bytes.get(LONG, 16), bytes.get(LONG, 24)), bytes.get(LONG, 32),
                    bytes.get(LONG, 40), bytes.get(LONG, 48));
        }
    }

    public static boolean exists(Path directory) {
        return Files.exists(directory.resolve(FILE_NAME));
    }

    private static int crc(MemorySegment bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes.asByteBuffer());
        return (int) crc.getValue();
    }

    static void deleteTemporary(Path directory) {
        try {
            Files.deleteIfExists(directory.resolve(FILE_NAME + ".tmp"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

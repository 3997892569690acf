package dev.columba.columnstore.file;

import java.lang.foreign.MemorySegment;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;

/**
 * The checksum of the columnstore's files (rowgroup-file.md, dictionary-file.md): CRC32C, stored
 * as a little-endian u32 and handled as the {@code int} of its low 32 bits. One owner, so that the
 * writers, the engine's readers and {@code columba inspect} cannot disagree on the algorithm.
 */
public final class ColumnstoreChecksum {
    private ColumnstoreChecksum() {
    }

    /** A fresh running checksum, for bytes that arrive in pieces; {@link #value(Checksum)} reads it. */
    public static Checksum newChecksum() {
        return new CRC32C();
    }

    /** The stored form of a running checksum's value. */
    public static int value(Checksum checksum) {
        return (int) checksum.getValue();
    }

    /** The checksum of {@code bytes}. */
    public static int of(MemorySegment bytes) {
        Checksum checksum = newChecksum();
        checksum.update(bytes.asByteBuffer());
        return value(checksum);
    }

    /** The checksum of {@code length} bytes of {@code bytes} from {@code offset}. */
    public static int of(byte[] bytes, int offset, int length) {
        Checksum checksum = newChecksum();
        checksum.update(bytes, offset, length);
        return value(checksum);
    }
}

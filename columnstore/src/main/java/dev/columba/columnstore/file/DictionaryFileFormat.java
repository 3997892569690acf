package dev.columba.columnstore.file;

/**
 * Constants of the primary dictionary file {@code dict-<column>.cdict}
 * (docs/format/dictionary-file.md), shared by {@link DictionaryFile} (writer and reader) and
 * public for {@code columba inspect}.
 *
 * <pre>
 * header (24 bytes)  magic "CLMBDICT", version, CRC32C of everything after it, dictionary length D
 * dictionary (D)     one dictionary as segment.md specifies it ("CDIC" ...)
 * </pre>
 * Little-endian. Version 1 files were the bare dictionary, without this header or a checksum: they
 * start with the dictionary magic "CDIC" and this build refuses them as too old.
 */
public final class DictionaryFileFormat {
    private DictionaryFileFormat() {
    }

    /** "CLMBDICT" as a little-endian u64. */
    public static final long MAGIC = 0x54434944424d4c43L;
    /** The version this code writes, and the newest it reads. */
    public static final int VERSION = 2;
    /** The oldest version this code reads: version 1 had no checksum. */
    public static final int OLDEST_READABLE_VERSION = 2;

    public static final int HEADER_MAGIC = 0;
    /** u32. */
    public static final int HEADER_VERSION = 8;
    /** The CRC32C ({@link ColumnstoreChecksum}) of bytes {@code [HEADER_CHECKED_FROM, end of file)}. */
    public static final int HEADER_CRC = 12;
    /** Where the checksummed bytes start: the dictionary length and the dictionary. */
    public static final int HEADER_CHECKED_FROM = 16;
    /** u64: the bytes of the dictionary, which fills the rest of the file. */
    public static final int HEADER_DICTIONARY_LENGTH = 16;
    /** The dictionary starts here. */
    public static final int HEADER_SIZE = 24;
}

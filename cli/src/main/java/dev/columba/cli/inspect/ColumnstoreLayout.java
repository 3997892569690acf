package dev.columba.cli.inspect;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a database keeps its columnstore files and the byte offsets inspect reads in them
 * (docs/format/rowgroup-file.md, segment.md, columnstore-metadata.md). The columnstore module keeps
 * these in package-private constants ({@code RowgroupFileFormat}'s header offsets,
 * {@code SegmentFormat}, {@code DictionaryFormat}, {@code MetadataFormat}) and in
 * {@code ColumnstoreTable} and {@code PrimaryDictionaries}; they are repeated here from the specs,
 * and must change with them.
 */
final class ColumnstoreLayout {
    private ColumnstoreLayout() {
    }

    static final String COLUMNSTORE_DIRECTORY = "columnstore";
    static final String ROWGROUP_SUFFIX = ".crg";
    static final String DICTIONARY_PREFIX = "dict-";
    static final String DICTIONARY_SUFFIX = ".cdict";
    /** Files are written under this suffix and renamed: one left behind is an interrupted write. */
    static final String TEMPORARY_SUFFIX = ".tmp";

    // ---- rowgroup file (rowgroup-file.md) ----------------------------------------------------------

    static final int HEADER_VERSION = 8;
    static final int HEADER_FLAGS = 12;
    static final int HEADER_ROWGROUP_ID = 16;
    static final int HEADER_ROWS = 20;
    static final int HEADER_COLUMNS = 24;
    static final int HEADER_BLOBS = 26;
    static final int HEADER_CRC = 60;
    /** Footer entry before its metadata: u64 offset, u64 length, u32 crc, u32 metadata length. */
    static final int FOOTER_ENTRY_FIXED = 24;
    /** Trailer: u64 footer offset, u32 footer length, u32 footer crc, u64 magic. */
    static final int TRAILER_FOOTER_LENGTH = 8;
    static final int TRAILER_FOOTER_CRC = 12;
    static final int TRAILER_MAGIC = 16;

    // ---- segment and dictionary headers (segment.md) -----------------------------------------------

    /** "CSEG" as a little-endian u32. */
    static final int SEGMENT_MAGIC = 0x47455343;
    /** "CDIC" as a little-endian u32. */
    static final int DICTIONARY_MAGIC = 0x43494443;
    static final int DICTIONARY_VERSION_OFFSET = 4;
    static final int DICTIONARY_KIND_OFFSET = 5;
    static final int DICTIONARY_FLAGS_OFFSET = 6;
    static final int DICTIONARY_ID_OFFSET = 8;
    static final int DICTIONARY_COUNT_OFFSET = 12;
    static final int DICTIONARY_DATA_LENGTH_OFFSET = 16;
    static final int DICTIONARY_HEADER_BYTES = 24;
    static final int DICTIONARY_FLAG_SECONDARY = 0x01;

    // ---- rowgroup directory (columnstore-metadata.md) ----------------------------------------------

    static final int METADATA_VERSION = 1;
    /** A rowgroup key: the rowgroup id, four big-endian bytes. */
    static final int ROWGROUP_KEY_LENGTH = 4;
    /** The key of the table's own record: five 0xFF bytes, after every rowgroup key. */
    static final int TABLE_KEY_LENGTH = 5;

    /** {@code <db>/columnstore}. */
    static Path columnstoreDirectory(Path database) {
        return database.resolve(COLUMNSTORE_DIRECTORY);
    }

    /** {@code <db>/columnstore/<table id>}. */
    static Path tableDirectory(Path database, int tableId) {
        return columnstoreDirectory(database).resolve(String.valueOf(tableId));
    }

    static String rowgroupFileName(int rowgroupId) {
        return rowgroupId + ROWGROUP_SUFFIX;
    }

    static String dictionaryFileName(int column) {
        return DICTIONARY_PREFIX + column + DICTIONARY_SUFFIX;
    }

    /** The rowgroup id a file name {@code <id>.crg} gives, or -1. */
    static int rowgroupIdOfName(String name) {
        return numberBetween(name, "", ROWGROUP_SUFFIX);
    }

    /** The column a file name {@code dict-<column>.cdict} gives, or -1. */
    static int columnOfDictionaryName(String name) {
        return numberBetween(name, DICTIONARY_PREFIX, DICTIONARY_SUFFIX);
    }

    /** The table id a directory name gives, or -1. */
    static int tableIdOfName(String name) {
        return numberBetween(name, "", "");
    }

    private static int numberBetween(String name, String prefix, String suffix) {
        if (!name.startsWith(prefix) || !name.endsWith(suffix) || name.length() <= prefix.length() + suffix.length()) {
            return -1;
        }
        String digits = name.substring(prefix.length(), name.length() - suffix.length());
        for (int index = 0; index < digits.length(); index++) {
            if (!Character.isDigit(digits.charAt(index))) {
                return -1;
            }
        }
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException tooLarge) {
            return -1;
        }
    }

    /**
     * The database directory holding {@code file} if it lies at {@code <db>/columnstore/<id>/<name>}
     * with a data file, else null.
     */
    static Path databaseOf(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        Path tableDirectory = absolute.getParent();
        if (tableDirectory == null || tableIdOfName(tableDirectory.getFileName().toString()) < 0) {
            return null;
        }
        Path columnstore = tableDirectory.getParent();
        if (columnstore == null || !columnstore.getFileName().toString().equals(COLUMNSTORE_DIRECTORY)) {
            return null;
        }
        Path database = columnstore.getParent();
        return database != null && Files.exists(DirectoryLayout.dataFile(database)) ? database : null;
    }

    /** The table id of the directory holding {@code file}, or -1. */
    static int tableIdOf(Path file) {
        Path parent = file.toAbsolutePath().normalize().getParent();
        return parent == null ? -1 : tableIdOfName(parent.getFileName().toString());
    }
}

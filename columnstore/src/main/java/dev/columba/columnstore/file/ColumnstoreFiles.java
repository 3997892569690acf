package dev.columba.columnstore.file;

import dev.columba.storage.db.Database;
import java.nio.file.Path;

/**
 * The names of the columnstore's files in a database directory (database-directory.md,
 * rowgroup-file.md, dictionary-file.md): {@code <db>/columnstore/<table object id>/} holds a
 * table's rowgroup files {@code <rowgroup id>.crg} and primary dictionary files
 * {@code dict-<column>.cdict}. Every file is written under its name plus {@code .tmp} and renamed
 * into place, so a {@code .tmp} file left behind is an interrupted write. The engine builds these
 * names and {@code columba inspect} parses them, both from here.
 */
public final class ColumnstoreFiles {
    private ColumnstoreFiles() {
    }

    public static final String ROWGROUP_SUFFIX = ".crg";
    public static final String DICTIONARY_PREFIX = "dict-";
    public static final String DICTIONARY_SUFFIX = ".cdict";
    public static final String TEMPORARY_SUFFIX = ".tmp";

    /** {@code <db>/columnstore}. */
    public static Path columnstoreDirectory(Path database) {
        return database.resolve(Database.COLUMNSTORE_DIRECTORY);
    }

    /** {@code <db>/columnstore/<table id>}: the files of one table. */
    public static Path tableDirectory(Path database, int tableId) {
        return columnstoreDirectory(database).resolve(String.valueOf(tableId));
    }

    /** {@code <rowgroup id>.crg}. */
    public static String rowgroupFileName(int rowgroupId) {
        return rowgroupId + ROWGROUP_SUFFIX;
    }

    /** {@code dict-<column>.cdict}: the primary dictionary of column {@code column} (0-based). */
    public static String dictionaryFileName(int column) {
        return DICTIONARY_PREFIX + column + DICTIONARY_SUFFIX;
    }

    /** The name {@code file} is written under before it is renamed into place. */
    public static Path temporaryFile(Path file) {
        return file.resolveSibling(file.getFileName() + TEMPORARY_SUFFIX);
    }

    /** The rowgroup id a file name {@code <id>.crg} gives, or -1 if it is no rowgroup file's name. */
    public static int rowgroupIdOfName(String name) {
        return numberBetween(name, "", ROWGROUP_SUFFIX);
    }

    /** The column a file name {@code dict-<column>.cdict} gives, or -1 if it is no dictionary file's name. */
    public static int columnOfDictionaryName(String name) {
        return numberBetween(name, DICTIONARY_PREFIX, DICTIONARY_SUFFIX);
    }

    /** The table id a directory name under {@code <db>/columnstore} gives, or -1. */
    public static int tableIdOfDirectoryName(String name) {
        return numberBetween(name, "", "");
    }

    /** The number written in decimal, without leading zeros, between {@code prefix} and {@code suffix}, or -1. */
    private static int numberBetween(String name, String prefix, String suffix) {
        if (!name.startsWith(prefix) || !name.endsWith(suffix) || name.length() <= prefix.length() + suffix.length()) {
            return -1;
        }
        String digits = name.substring(prefix.length(), name.length() - suffix.length());
        for (int index = 0; index < digits.length(); index++) {
            char digit = digits.charAt(index);
            if (digit < '0' || digit > '9') {
                return -1;
            }
        }
        try {
            int number = Integer.parseInt(digits);
            // Only the name the engine writes: "07.crg" is not rowgroup 7's file.
            return String.valueOf(number).equals(digits) ? number : -1;
        } catch (NumberFormatException tooLarge) {
            return -1;
        }
    }
}

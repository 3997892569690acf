package dev.columba.storage.db;

import java.nio.file.Path;

/**
 * Where a database directory keeps its files (docs/format/database-directory.md): the names the
 * storage layer opens and {@code ./columba inspect} reads, held once.
 */
public final class DatabaseLayout {
    private DatabaseLayout() {
    }

    /** The directory's format version and page size, and the persisted global settings. */
    public static final String PROPERTIES_FILE = "columba.properties";
    public static final String FORMAT_VERSION_KEY = "format_version";
    public static final String PAGE_SIZE_KEY = "page_size";
    /** Version of the database directory layout that {@code columba.properties} declares. */
    public static final int FORMAT_VERSION = 3;
    public static final String DATA_DIRECTORY = "data";
    public static final String DATA_FILE = "columba.data";
    public static final String WAL_DIRECTORY = "wal";
    /** Copies of log files that recovery found damaged or cut, one folder per incident. */
    public static final String DAMAGED_DIRECTORY = "damaged";
    /** Files that live only while the process runs (a transaction's spilled pages); emptied at open. */
    public static final String TEMP_DIRECTORY = "temp";

    public static Path propertiesFile(Path database) {
        return database.resolve(PROPERTIES_FILE);
    }

    public static Path controlFile(Path database) {
        return database.resolve(ControlFile.FILE_NAME);
    }

    public static Path dataDirectory(Path database) {
        return database.resolve(DATA_DIRECTORY);
    }

    /** {@code data/files.properties}: the filegroups and files beyond the primary ones (when there are any). */
    public static Path fileManifest(Path database) {
        return dataDirectory(database).resolve(dev.columba.storage.file.FileManifest.FILE_NAME);
    }

    public static Path dataFile(Path database) {
        return database.resolve(DATA_DIRECTORY).resolve(DATA_FILE);
    }

    public static Path logDirectory(Path database) {
        return database.resolve(WAL_DIRECTORY);
    }

    /** Where a write transaction spills the page copies that do not fit its share of the pool. */
    public static Path spillFile(Path database) {
        return database.resolve(TEMP_DIRECTORY).resolve(dev.columba.storage.buffer.SpillFile.FILE_NAME);
    }

    public static Path damagedDirectory(Path database) {
        return database.resolve(DAMAGED_DIRECTORY);
    }
}

package dev.columba.cli.inspect;

import dev.columba.storage.db.ControlFile;
import java.nio.file.Path;

/**
 * Where a database directory keeps its files. Storage's {@code Database} and
 * {@code DatabaseProperties} hold these names package-private; they are repeated here, and must
 * change with them.
 */
final class DirectoryLayout {
    private DirectoryLayout() {
    }

    static final String PROPERTIES_FILE = "columba.properties";
    static final String FORMAT_VERSION_KEY = "format_version";
    static final String PAGE_SIZE_KEY = "page_size";
    /** The directory layout version {@code columba.properties} declares. */
    static final int FORMAT_VERSION = 1;
    static final String DATA_DIRECTORY = "data";
    static final String DATA_FILE = "columba.data";
    static final String WAL_DIRECTORY = "wal";

    static Path propertiesFile(Path database) {
        return database.resolve(PROPERTIES_FILE);
    }

    static Path controlFile(Path database) {
        return database.resolve(ControlFile.FILE_NAME);
    }

    static Path dataFile(Path database) {
        return database.resolve(DATA_DIRECTORY).resolve(DATA_FILE);
    }

    static Path logDirectory(Path database) {
        return database.resolve(WAL_DIRECTORY);
    }
}

package dev.columba.storage.db;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.settings.SettingValues;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import dev.columba.storage.page.PageFormat;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * {@code <db>/columba.properties}: the directory's format version and page size, and the global
 * setting values that persist ({@code ALTER SYSTEM SET}). Plain text, so a person can read it;
 * rewritten atomically.
 */
final class DatabaseProperties {
    private static final String FILE_NAME = DatabaseLayout.PROPERTIES_FILE;
    private static final String FORMAT_VERSION_KEY = DatabaseLayout.FORMAT_VERSION_KEY;
    private static final String PAGE_SIZE_KEY = DatabaseLayout.PAGE_SIZE_KEY;
    private static final int FORMAT_VERSION = DatabaseLayout.FORMAT_VERSION;

    private DatabaseProperties() {
    }

    static Properties read(Path directory) {
        Path path = directory.resolve(FILE_NAME);
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot read " + path + ": " + e.getMessage(), e);
        }
        String version = properties.getProperty(FORMAT_VERSION_KEY);
        if (version == null) {
            throw new ColumbaException(ErrorCode.FILE_MAGIC_MISMATCH, path + " has no " + FORMAT_VERSION_KEY
                    + ": not a Columba database directory");
        }
        int number;
        try {
            number = Integer.parseInt(version.trim());
        } catch (NumberFormatException e) {
            throw new ColumbaException(ErrorCode.FILE_MAGIC_MISMATCH, path + " has " + FORMAT_VERSION_KEY + " = '"
                    + version + "', not a number");
        }
        if (number > FORMAT_VERSION) {
            throw new ColumbaException(ErrorCode.FORMAT_TOO_NEW, path + ": the database has format version " + number
                    + ", newer than this build (" + FORMAT_VERSION + ")");
        }
        if (number < 1) {
            throw new ColumbaException(ErrorCode.FORMAT_TOO_OLD, path + ": the database has format version " + number);
        }
        String pageSize = properties.getProperty(PAGE_SIZE_KEY, String.valueOf(PageFormat.PAGE_SIZE));
        if (!pageSize.trim().equals(String.valueOf(PageFormat.PAGE_SIZE))) {
            throw new ColumbaException(ErrorCode.PAGE_HEADER_INVALID, path + ": the database has page size "
                    + pageSize + ", this build uses " + PageFormat.PAGE_SIZE);
        }
        return properties;
    }

    /** Writes the file with the given persisted global settings. */
    static void write(FilesFacade files, Path directory, SettingValues globals) {
        write(files, directory, globals.toProperties());
    }

    static void write(FilesFacade files, Path directory, Properties settings) {
        Properties properties = new Properties();
        properties.putAll(settings);
        properties.setProperty(FORMAT_VERSION_KEY, String.valueOf(FORMAT_VERSION));
        properties.setProperty(PAGE_SIZE_KEY, String.valueOf(PageFormat.PAGE_SIZE));
        Path temporary = directory.resolve(FILE_NAME + ".tmp");
        try (Writer writer = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
            properties.store(writer, "Columba database; settings here are global (ALTER SYSTEM SET)");
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot write " + temporary + ": " + e.getMessage(), e);
        }
        try (FileHandle file = files.open(temporary, FilesFacade.OpenMode.READ_WRITE, false)) {
            file.force(true);
        }
        try {
            Files.move(temporary, directory.resolve(FILE_NAME), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot replace " + directory.resolve(FILE_NAME) + ": " + e, e);
        }
        files.syncDirectory(directory);
    }
}

package dev.columba.storage.db;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.settings.SettingValues;
import dev.columba.storage.file.FileManifest;
import dev.columba.storage.file.SealedPropertiesFile;
import dev.columba.storage.io.FilesFacade;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.wal.DamagedFiles;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * {@code <db>/columba.properties} (docs/format/database-directory.md): the directory's format
 * version and page size, and the global setting values that persist ({@code ALTER SYSTEM SET}).
 * Plain text, so a person can read it; rewritten atomically. Since format version 3 its last line is
 * {@code checksum=<CRC32C of every byte before that line>}: a damaged byte that would still parse
 * cannot change how the database is opened. Files of versions 1 and 2 have no such line and are
 * read as they are; they are rewritten as the current version when next written.
 */
public final class DatabaseProperties {
    private static final String FILE_NAME = DatabaseLayout.PROPERTIES_FILE;
    private static final String FORMAT_VERSION_KEY = DatabaseLayout.FORMAT_VERSION_KEY;
    private static final String PAGE_SIZE_KEY = DatabaseLayout.PAGE_SIZE_KEY;
    private static final int FORMAT_VERSION = DatabaseLayout.FORMAT_VERSION;
    /** The first format version whose file ends with a checksum line. */
    static final int FIRST_SEALED_VERSION = 3;
    private static final String HEADER = """
            # Columba database directory (docs/format/database-directory.md): its format, and the global
            # settings ALTER SYSTEM SET stores. The last line is a CRC32C of every byte before it, checked
            # at every opening: change settings with ALTER SYSTEM SET, not by editing this file.
            """;

    private DatabaseProperties() {
    }

    static Properties read(Path directory) {
        return readFile(directory.resolve(FILE_NAME));
    }

    /**
     * Reads and checks a {@code columba.properties} file: its checksum (version 3 on), format version
     * and page size. The file is never changed.
     *
     * @throws ColumbaException a corruption code naming the file and what is wrong (checksum
     *         {@code PAGE_CHECKSUM_MISMATCH}, version {@code FORMAT_TOO_OLD/NEW}, not a properties
     *         file {@code FILE_MAGIC_MISMATCH}, page size {@code PAGE_HEADER_INVALID}); IO_ERROR if it
     *         cannot be read
     */
    public static Properties readFile(Path path) {
        SealedPropertiesFile.Contents contents = SealedPropertiesFile.readVerified(path, RESEAL);
        Properties properties = SealedPropertiesFile.parse(contents, contents.bodyLength());
        int version = version(path, properties);
        if (!contents.sealed() && version >= FIRST_SEALED_VERSION) {
            throw SealedPropertiesFile.missingChecksum(path, version, RESEAL);
        }
        checkPageSize(path, properties);
        return properties;
    }

    private static void checkPageSize(Path path, Properties properties) {
        String pageSize = properties.getProperty(PAGE_SIZE_KEY, String.valueOf(PageFormat.PAGE_SIZE));
        if (!pageSize.trim().equals(String.valueOf(PageFormat.PAGE_SIZE))) {
            throw new ColumbaException(ErrorCode.PAGE_HEADER_INVALID, path + ": the database has page size "
                    + pageSize + ", this build uses " + PageFormat.PAGE_SIZE);
        }
    }

    /** What a person can do about a damaged file that still parses. */
    static final String RESEAL = ". If the values it holds are right (./columba inspect shows them),"
            + " ./columba repair <database directory> --reseal-properties writes it again with a new checksum and keeps"
            + " this copy in damaged/";

    /**
     * {@code ./columba repair <directory> --reseal-properties}: for each of {@code columba.properties}
     * and {@code data/files.properties} whose checksum is wrong or missing but whose text is still a
     * valid file (for the first a readable format version and page size and setting values that
     * parse; for the manifest filegroups and files it can list), copies it into
     * {@code damaged/properties-<name>-<crc>/} and writes it again, as the current version, with
     * those values and a new checksum. The values kept are whatever the file says now, so the
     * returned description lists them for a person to check. A sound file is left alone; a file that
     * does not parse is refused (nothing changed). Takes the database's lock, so the database must
     * not be open.
     *
     * @return what was found and done, a paragraph per file
     * @throws ColumbaException as {@link #readFile} or {@link FileManifest#read} when a file cannot
     *         be resealed; DATABASE_IN_USE
     */
    public static String reseal(Path directory, FilesFacade files) {
        try (Database.DirectoryLock ignored = Database.DirectoryLock.take(directory)) {
            String settings = resealSettings(directory, files);
            Path dataDirectory = DatabaseLayout.dataDirectory(directory);
            if (!Files.exists(DatabaseLayout.fileManifest(directory))) {
                return settings;
            }
            return settings + "\n" + resealManifest(directory, dataDirectory, files);
        }
    }

    private static String resealSettings(Path directory, FilesFacade files) {
        Path path = directory.resolve(FILE_NAME);
        String damage = damage(() -> readFile(path));
        if (damage == null) {
            return path + " is sound (its checksum matches): nothing was changed";
        }
        SealedPropertiesFile.Contents contents = SealedPropertiesFile.read(path);
        Properties settings = SealedPropertiesFile.parse(contents, contents.bodyLength());
        int version = version(path, settings);
        if (!contents.sealed()) {
            // A version-3 file whose last line is no longer a checksum line: that line was it, not a setting.
            settings = SealedPropertiesFile.parse(contents, SealedPropertiesFile.lastLineStart(contents.bytes()));
            version(path, settings);
        }
        checkPageSize(path, settings);
        settings.remove(FORMAT_VERSION_KEY);
        settings.remove(PAGE_SIZE_KEY);
        SettingValues.fromProperties(settings);
        StringBuilder values = new StringBuilder();
        new java.util.TreeMap<>(settings).forEach((key, value) -> values.append("\n  ").append(key).append(" = ").append(value));
        String kept = settings.isEmpty() ? " (none)" : values.toString();
        Path incident = preserve(files, directory, contents, damage, "format version " + FORMAT_VERSION
                + " (it said " + version + ") with a new checksum and the settings" + kept);
        write(files, directory, settings);
        return path + " was resealed (format version " + FORMAT_VERSION + ", a new checksum); the damaged file is"
                + " kept in " + incident + ". Check that these settings are the ones you set:" + kept;
    }

    private static String resealManifest(Path directory, Path dataDirectory, FilesFacade files) {
        Path path = dataDirectory.resolve(FileManifest.FILE_NAME);
        String damage = damage(() -> FileManifest.read(dataDirectory));
        if (damage == null) {
            return path + " is sound (its checksum matches): nothing was changed";
        }
        SealedPropertiesFile.Contents contents = SealedPropertiesFile.read(path);
        FileManifest manifest = FileManifest.readUnchecked(contents);
        String kept = manifest.describe();
        Path incident = preserve(files, directory, contents, damage, "format version "
                + FileManifest.FORMAT_VERSION + " with a new checksum and the filegroups and files" + kept);
        manifest.write(files, dataDirectory);
        return path + " was resealed (format version " + FileManifest.FORMAT_VERSION + ", a new checksum); the damaged"
                + " file is kept in " + incident + ". Check that these filegroups and files are the ones you made:" + kept;
    }

    /** The message of the checksum error {@code check} throws, null when it throws none; any other error is thrown. */
    private static String damage(Runnable check) {
        try {
            check.run();
            return null;
        } catch (ColumbaException damaged) {
            if (damaged.errorCode() != ErrorCode.PAGE_CHECKSUM_MISMATCH) {
                throw damaged;
            }
            return damaged.getMessage();
        }
    }

    /** Copies the damaged file into {@code damaged/properties-<its name>-<crc>/}, with a report of what was found and done. */
    private static Path preserve(FilesFacade files, Path directory, SealedPropertiesFile.Contents contents, String damage,
                                 String done) {
        return DamagedFiles.preserve(files, DatabaseLayout.damagedDirectory(directory), "properties",
                List.of(new DamagedFiles.Piece(contents.path(), 0, contents.bytes().length,
                        contents.path().getFileName().toString())),
                "found: " + damage + "\ndone: ./columba repair --reseal-properties wrote " + contents.path() + " again as "
                        + done);
    }

    /** Writes the file with the given persisted global settings. */
    static void write(FilesFacade files, Path directory, SettingValues globals) {
        write(files, directory, globals.toProperties());
    }

    /** Writes the file, as the current format version, with {@code settings} (any version or page size in it replaced). */
    static void write(FilesFacade files, Path directory, Properties settings) {
        Properties properties = new Properties();
        properties.putAll(settings);
        properties.setProperty(FORMAT_VERSION_KEY, String.valueOf(FORMAT_VERSION));
        properties.setProperty(PAGE_SIZE_KEY, String.valueOf(PageFormat.PAGE_SIZE));
        SealedPropertiesFile.replace(files, directory.resolve(FILE_NAME), format(properties));
    }

    /**
     * The file's bytes: the header comment, one {@code key=value} line per property in the order of
     * their text (escaped as {@link Properties#store} escapes them), and the checksum line. The same
     * properties always give the same bytes.
     */
    static byte[] format(Properties properties) {
        StringWriter stored = new StringWriter();
        try {
            properties.store(stored, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        StringBuilder text = new StringBuilder(HEADER);
        stored.toString().lines().filter(line -> !line.startsWith("#")).sorted()
                .forEach(line -> text.append(line).append('\n'));
        return SealedPropertiesFile.seal(text.toString());
    }

    private static int version(Path path, Properties properties) {
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
        return number;
    }
}

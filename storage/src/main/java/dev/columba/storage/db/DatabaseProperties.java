package dev.columba.storage.db;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.settings.SettingValues;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.wal.DamagedFiles;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.zip.CRC32C;

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
    /** The last line: this prefix, eight lowercase hexadecimal digits, a newline. */
    static final String CHECKSUM_PREFIX = "checksum=";
    private static final int CHECKSUM_LINE_LENGTH = CHECKSUM_PREFIX.length() + 8 + 1;
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
        byte[] bytes = bytes(path);
        int checksumLine = checksumLine(bytes);
        if (checksumLine >= 0) {
            verify(path, bytes, checksumLine);
        }
        Properties properties = parse(path, bytes, checksumLine >= 0 ? checksumLine : bytes.length);
        int version = version(path, properties);
        if (checksumLine < 0 && version >= FIRST_SEALED_VERSION) {
            throw new ColumbaException(ErrorCode.PAGE_CHECKSUM_MISMATCH, path + " is corrupt: it has format version "
                    + version + " but does not end with its " + CHECKSUM_PREFIX + " line" + RESEAL);
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

    private static final String UNCHANGED = "; the file was not changed";
    private static final String RESEAL = UNCHANGED + ". If the values it holds are right (./columba inspect shows them),"
            + " ./columba repair <database directory> --reseal-properties writes it again with a new checksum and keeps"
            + " this copy in damaged/";

    /**
     * {@code ./columba repair <directory> --reseal-properties}: when the file's checksum is wrong or
     * missing but what it says is still a valid file (a readable format version and page size,
     * setting values that parse), copies it into {@code damaged/properties-columba-<crc>/} and
     * writes it again, as the current version, with those settings and a new checksum. The settings
     * kept are whatever the file says now, so the returned description lists them for a person to
     * check. A sound file is left alone; a file that does not parse is refused (nothing changed).
     * Takes the database's lock, so the database must not be open.
     *
     * @return what was found and done
     * @throws ColumbaException as {@link #readFile} when the file cannot be resealed; DATABASE_IN_USE
     */
    public static String reseal(Path directory, FilesFacade files) {
        Path path = directory.resolve(FILE_NAME);
        try (Database.DirectoryLock ignored = Database.DirectoryLock.take(directory)) {
            String damage;
            try {
                readFile(path);
                return path + " is sound (its checksum matches): nothing was changed";
            } catch (ColumbaException damaged) {
                if (damaged.errorCode() != ErrorCode.PAGE_CHECKSUM_MISMATCH) {
                    throw damaged;
                }
                damage = damaged.getMessage();
            }
            byte[] bytes = bytes(path);
            int checksumLine = checksumLine(bytes);
            Properties settings = parse(path, bytes, checksumLine >= 0 ? checksumLine : bytes.length);
            int version = version(path, settings);
            if (checksumLine < 0) {
                // A version-3 file whose last line is no longer a checksum line: that line was it, not a setting.
                settings = parse(path, bytes, lastLineStart(bytes));
                version(path, settings);
            }
            checkPageSize(path, settings);
            settings.remove(FORMAT_VERSION_KEY);
            settings.remove(PAGE_SIZE_KEY);
            SettingValues.fromProperties(settings);
            StringBuilder values = new StringBuilder();
            new java.util.TreeMap<>(settings).forEach((key, value) -> values.append("\n  ").append(key).append(" = ").append(value));
            String kept = settings.isEmpty() ? " (none)" : values.toString();
            Path incident = DamagedFiles.preserve(files, DatabaseLayout.damagedDirectory(directory), "properties",
                    List.of(new DamagedFiles.Piece(path, 0, bytes.length, FILE_NAME)),
                    "found: " + damage + "\ndone: ./columba repair --reseal-properties wrote " + path + " again as format"
                            + " version " + FORMAT_VERSION + " (it said " + version + ") with a new checksum and the settings" + kept);
            write(files, directory, settings);
            return path + " was resealed (format version " + FORMAT_VERSION + ", a new checksum); the damaged file is"
                    + " kept in " + incident + ". Check that these settings are the ones you set:" + kept;
        }
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
        Path temporary = directory.resolve(FILE_NAME + ".tmp");
        try {
            Files.write(temporary, format(properties));
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
        return seal(text.toString());
    }

    /** {@code body} (whole lines) followed by its checksum line, in UTF-8. */
    static byte[] seal(String body) {
        byte[] text = body.getBytes(StandardCharsets.UTF_8);
        byte[] line = (CHECKSUM_PREFIX + HexFormat.of().toHexDigits(crc(text, text.length)) + "\n")
                .getBytes(StandardCharsets.US_ASCII);
        byte[] sealed = new byte[text.length + line.length];
        System.arraycopy(text, 0, sealed, 0, text.length);
        System.arraycopy(line, 0, sealed, text.length, line.length);
        return sealed;
    }

    private static byte[] bytes(Path path) {
        try {
            return Files.readAllBytes(path);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot read " + path + ": " + e, e);
        }
    }

    /**
     * Where the last line starts if it is a checksum line (it starts with the word {@code checksum},
     * whatever follows), else -1: a file without one is of an older version, or damaged there.
     */
    private static int checksumLine(byte[] bytes) {
        int start = lastLineStart(bytes);
        byte[] word = CHECKSUM_PREFIX.substring(0, CHECKSUM_PREFIX.length() - 1).getBytes(StandardCharsets.US_ASCII);
        if (bytes.length - start < word.length) {
            return -1;
        }
        for (int index = 0; index < word.length; index++) {
            if (bytes[start + index] != word[index]) {
                return -1;
            }
        }
        return start;
    }

    private static int lastLineStart(byte[] bytes) {
        int start = bytes.length > 0 && bytes[bytes.length - 1] == '\n' ? bytes.length - 1 : bytes.length;
        while (start > 0 && bytes[start - 1] != '\n') {
            start--;
        }
        return start;
    }

    private static void verify(Path path, byte[] bytes, int checksumLine) {
        String line = new String(bytes, checksumLine, bytes.length - checksumLine, StandardCharsets.ISO_8859_1);
        int computed = crc(bytes, checksumLine);
        if (bytes.length - checksumLine != CHECKSUM_LINE_LENGTH || !line.startsWith(CHECKSUM_PREFIX)
                || !line.endsWith("\n") || !lowercaseHex(line.substring(CHECKSUM_PREFIX.length(), line.length() - 1))) {
            throw new ColumbaException(ErrorCode.PAGE_CHECKSUM_MISMATCH, path + " is corrupt: its last line, at offset "
                    + checksumLine + ", is '" + line.strip() + "', not " + CHECKSUM_PREFIX + "<8 lowercase hex digits>"
                    + " (the bytes before it give " + HexFormat.of().toHexDigits(computed) + ")" + RESEAL);
        }
        int stored = HexFormat.fromHexDigits(line, CHECKSUM_PREFIX.length(), line.length() - 1);
        if (stored != computed) {
            throw new ColumbaException(ErrorCode.PAGE_CHECKSUM_MISMATCH, String.format(
                    "%s is corrupt: its checksum line at offset %d says %08x, the %d bytes before it give %08x%s",
                    path, checksumLine, stored, checksumLine, computed, RESEAL));
        }
    }

    private static boolean lowercaseHex(String digits) {
        return digits.chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'f');
    }

    private static Properties parse(Path path, byte[] bytes, int length) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, 0, length)).toString();
        } catch (CharacterCodingException e) {
            throw new ColumbaException(ErrorCode.FILE_MAGIC_MISMATCH, path + " is not UTF-8 text (" + e + ")"
                    + UNCHANGED, e);
        }
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(text));
        } catch (IOException | IllegalArgumentException e) {
            throw new ColumbaException(ErrorCode.FILE_MAGIC_MISMATCH, path + " is not a readable properties file: "
                    + e.getMessage() + UNCHANGED, e);
        }
        return properties;
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

    private static int crc(byte[] bytes, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length);
        return (int) crc.getValue();
    }
}

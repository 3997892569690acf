package dev.columba.cli.inspect;

import dev.columba.columnstore.dictionary.DictionaryFormat;
import dev.columba.columnstore.file.ColumnstoreFiles;
import dev.columba.columnstore.file.DictionaryFileFormat;
import dev.columba.columnstore.file.RowgroupFileFormat;
import dev.columba.storage.db.ControlFile;
import dev.columba.storage.db.DatabaseLayout;
import dev.columba.storage.file.DataFileFormat;
import dev.columba.storage.file.FileManifest;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.wal.LogFormat;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.stream.Stream;

/**
 * Tells what a path is. Files are recognized by their magic first, so a renamed file is still
 * found, and then by their name, so a file whose first bytes are damaged is still dumped (and its
 * damage reported) rather than refused.
 */
final class Target {
    private Target() {
    }

    /** The kinds of path inspect dumps. */
    enum Kind {
        DATABASE_DIRECTORY("a database directory"),
        LOG_DIRECTORY("a write-ahead log directory"),
        DATA_FILE("a data file"),
        LOG_SEGMENT("a write-ahead log segment"),
        CONTROL_FILE("a control file"),
        PROPERTIES_FILE("a properties file"),
        ROWGROUP_FILE("a rowgroup file"),
        DICTIONARY_FILE("a dictionary file");

        private final String description;

        Kind(String description) {
            this.description = description;
        }

        String description() {
            return description;
        }
    }

    /** How many bytes detection looks at: enough for the data file's magic after the page header. */
    private static final int PROBE_LENGTH = PageFormat.HEADER_SIZE + 8;

    static Kind detect(Path path) throws UsageException {
        if (!Files.exists(path)) {
            throw new UsageException(path + " does not exist");
        }
        if (Files.isDirectory(path)) {
            return detectDirectory(path);
        }
        if (!Files.isReadable(path)) {
            throw new UsageException(path + " cannot be read");
        }
        byte[] probe;
        try (ReadOnlyFile file = ReadOnlyFile.open(path)) {
            probe = file.bytes(0, PROBE_LENGTH);
        }
        ByteBuffer bytes = ByteBuffer.wrap(probe).order(ByteOrder.LITTLE_ENDIAN);
        byte[] logMagic = LogFormat.magic();
        if (probe.length >= logMagic.length && Arrays.equals(probe, 0, logMagic.length, logMagic, 0, logMagic.length)) {
            return Kind.LOG_SEGMENT;
        }
        if (probe.length >= 8 && bytes.getLong(0) == ControlFile.MAGIC) {
            return Kind.CONTROL_FILE;
        }
        if (probe.length >= PROBE_LENGTH && bytes.getLong(DataFileFormat.HEADER_MAGIC_OFFSET) == DataFileFormat.MAGIC) {
            return Kind.DATA_FILE;
        }
        if (probe.length >= 8 && bytes.getLong(0) == RowgroupFileFormat.MAGIC) {
            return Kind.ROWGROUP_FILE;
        }
        if (probe.length >= 8 && bytes.getLong(0) == DictionaryFileFormat.MAGIC) {
            return Kind.DICTIONARY_FILE;
        }
        if (probe.length >= 4 && bytes.getInt(0) == DictionaryFormat.MAGIC) {
            // A bare dictionary: a version-1 dictionary file, which the dump reports as too old.
            return Kind.DICTIONARY_FILE;
        }
        String name = path.getFileName().toString();
        if (name.equals(DatabaseLayout.PROPERTIES_FILE) || name.equals(FileManifest.FILE_NAME)
                || new String(probe, StandardCharsets.ISO_8859_1).contains(DatabaseLayout.FORMAT_VERSION_KEY)) {
            return Kind.PROPERTIES_FILE;
        }
        if (LogFormat.startLsnOfName(name) >= 0) {
            return Kind.LOG_SEGMENT;
        }
        if (name.equals(ControlFile.FILE_NAME)) {
            return Kind.CONTROL_FILE;
        }
        if (name.equals(DatabaseLayout.DATA_FILE)) {
            return Kind.DATA_FILE;
        }
        if (name.endsWith(ColumnstoreFiles.ROWGROUP_SUFFIX)) {
            return Kind.ROWGROUP_FILE;
        }
        if (name.endsWith(ColumnstoreFiles.DICTIONARY_SUFFIX)) {
            return Kind.DICTIONARY_FILE;
        }
        throw new UsageException(path + " is not a file columba inspect knows: its first bytes are "
                + (probe.length == 0 ? "none (the file is empty)" : HexFormat.ofDelimiter(" ").formatHex(probe, 0,
                Math.min(16, probe.length)))
                + "; expected a data file (CLMBDATA at offset " + DataFileFormat.HEADER_MAGIC_OFFSET
                + "), a log segment (CLMB-WAL), a control file (CLMBCTRL), a rowgroup file (CLMBRGRP), a dictionary"
                + " file (CLMBDICT), " + DatabaseLayout.PROPERTIES_FILE + ", " + FileManifest.FILE_NAME
                + " or a database directory");
    }

    private static Kind detectDirectory(Path path) throws UsageException {
        if (Files.exists(path.resolve(DatabaseLayout.PROPERTIES_FILE)) || Files.exists(path.resolve(ControlFile.FILE_NAME))
                || Files.isDirectory(path.resolve(DatabaseLayout.DATA_DIRECTORY))) {
            return Kind.DATABASE_DIRECTORY;
        }
        try (Stream<Path> entries = Files.list(path)) {
            if (entries.anyMatch(entry -> LogFormat.startLsnOfName(entry.getFileName().toString()) >= 0)) {
                return Kind.LOG_DIRECTORY;
            }
        } catch (IOException e) {
            throw new UsageException("cannot list " + path + ": " + e.getMessage());
        }
        throw new UsageException(path + " is a directory but not a Columba database (no "
                + DatabaseLayout.PROPERTIES_FILE + ", " + ControlFile.FILE_NAME + " or " + DatabaseLayout.DATA_DIRECTORY
                + "/) nor a write-ahead log directory (no <16 hex digits>.wal files)");
    }
}

package dev.columba.storage.file;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.FilesFacade;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

/**
 * {@code <db>/data/files.properties}: the database's filegroups and its data files beyond the
 * primary one (docs/format/database-directory.md, "Files and filegroups"). It lives outside the
 * data file because recovery must open every file before it replays the log into them. Plain text,
 * rewritten atomically; since format version 2 it ends with a checksum line ({@link SealedPropertiesFile}),
 * so a damaged byte that still parses (a filegroup's name, a file's path) cannot change the database
 * that opens. A version-1 file is read as it is and becomes version 2 when next written. Filegroup 0 is PRIMARY
 * and file 0 is {@code data/columba.data}; neither is written. Immutable: a change makes a new one.
 */
public record FileManifest(List<Filegroup> filegroups, List<FileEntry> files) {
    public static final String FILE_NAME = "files.properties";
    public static final int FORMAT_VERSION = 2;
    /** The first format version whose file ends with a checksum line. */
    static final int FIRST_SEALED_VERSION = 2;
    private static final String HEADER = """
            # Columba filegroups and files (docs/format/database-directory.md). The last line is a CRC32C of
            # every byte before it, checked at every opening: change them with ALTER DATABASE, not by editing this file.
            """;
    private static final String RESEAL = ". If the filegroups and files it lists are right (./columba inspect shows"
            + " them), ./columba repair <database directory> --reseal-properties writes it again with a new checksum"
            + " and keeps this copy in damaged/";
    public static final String PRIMARY = "PRIMARY";
    public static final int PRIMARY_FILEGROUP = 0;

    /** A filegroup: a named set of files that objects are placed on. */
    public record Filegroup(int id, String name) {
        public Filegroup {
            if (id < 0 || name == null || name.isBlank()) {
                throw new IllegalArgumentException("bad filegroup " + id + " '" + name + "'");
            }
        }
    }

    /**
     * A data file.
     *
     * @param path as given when it was added: relative to the database directory, or absolute
     */
    public record FileEntry(int id, String name, int filegroupId, String path) {
        public FileEntry {
            if (id < 1 || id >= dev.columba.storage.page.PageFormat.MAX_FILES) {
                throw new IllegalArgumentException("file id " + id + " out of range 1.."
                        + (dev.columba.storage.page.PageFormat.MAX_FILES - 1));
            }
        }

        public Path resolve(Path database) {
            return database.resolve(path);
        }
    }

    public FileManifest {
        filegroups = List.copyOf(filegroups);
        files = List.copyOf(files);
    }

    /** A database with only the primary filegroup and file. */
    public static FileManifest primaryOnly() {
        return new FileManifest(List.of(new Filegroup(PRIMARY_FILEGROUP, PRIMARY)), List.of());
    }

    public Optional<Filegroup> filegroup(String name) {
        return filegroups.stream().filter(group -> group.name().equalsIgnoreCase(name)).findFirst();
    }

    public Filegroup filegroup(int id) {
        return filegroups.stream().filter(group -> group.id() == id).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no filegroup " + id));
    }

    /** The files of a filegroup by id, ascending (the primary filegroup's include file 0, not listed here). */
    public List<FileEntry> filesOf(int filegroupId) {
        return files.stream().filter(file -> file.filegroupId() == filegroupId).toList();
    }

    public Optional<FileEntry> file(String name) {
        return files.stream().filter(file -> file.name().equalsIgnoreCase(name)).findFirst();
    }

    public FileManifest withFilegroup(String name) {
        int id = filegroups.stream().mapToInt(Filegroup::id).max().orElse(0) + 1;
        List<Filegroup> groups = new ArrayList<>(filegroups);
        groups.add(new Filegroup(id, name));
        return new FileManifest(groups, files);
    }

    public FileManifest withoutFilegroup(int id) {
        return new FileManifest(filegroups.stream().filter(group -> group.id() != id).toList(), files);
    }

    /** With a new file; its id is the next free one. */
    public FileManifest withFile(String name, int filegroupId, String path) {
        int id = files.stream().mapToInt(FileEntry::id).max().orElse(0) + 1;
        List<FileEntry> entries = new ArrayList<>(files);
        entries.add(new FileEntry(id, name, filegroupId, path));
        return new FileManifest(filegroups, entries);
    }

    /**
     * The manifest in {@code <db>/data}, or the primary-only one when there is none. From format
     * version 2 its checksum line is checked before anything is parsed; a version-1 file (no
     * checksum) is read as it is. The file is never changed.
     *
     * @throws ColumbaException a corruption code naming the file (checksum PAGE_CHECKSUM_MISMATCH,
     *         version FORMAT_TOO_OLD/NEW, a line that does not parse FILE_MAGIC_MISMATCH); IO_ERROR
     */
    public static FileManifest read(Path dataDirectory) {
        Path path = dataDirectory.resolve(FILE_NAME);
        if (!Files.exists(path)) {
            return primaryOnly();
        }
        SealedPropertiesFile.Contents contents = SealedPropertiesFile.readVerified(path, RESEAL);
        Properties properties = SealedPropertiesFile.parse(contents, contents.bodyLength());
        int version = version(properties, path);
        if (!contents.sealed() && version >= FIRST_SEALED_VERSION) {
            throw SealedPropertiesFile.missingChecksum(path, version, RESEAL);
        }
        return fromProperties(properties, path);
    }

    /**
     * What a damaged file lists, its checksum not checked ({@code ./columba repair --reseal-properties}):
     * the lines before its checksum line, or before its last line when that is no longer one.
     *
     * @throws ColumbaException as {@link #read} when the text does not parse as a manifest
     */
    public static FileManifest readUnchecked(SealedPropertiesFile.Contents contents) {
        Properties properties = SealedPropertiesFile.parse(contents, contents.bodyLength());
        if (!contents.sealed() && version(properties, contents.path()) >= FIRST_SEALED_VERSION) {
            properties = SealedPropertiesFile.parse(contents, SealedPropertiesFile.lastLineStart(contents.bytes()));
        }
        version(properties, contents.path());
        return fromProperties(properties, contents.path());
    }

    private static int version(Properties properties, Path path) {
        int version = integer(properties, "format_version", path);
        if (version > FORMAT_VERSION) {
            throw new ColumbaException(ErrorCode.FORMAT_TOO_NEW, path + " has format version " + version
                    + ", newer than this build (" + FORMAT_VERSION + ")");
        }
        if (version < 1) {
            throw new ColumbaException(ErrorCode.FORMAT_TOO_OLD, path + " has format version " + version);
        }
        return version;
    }

    private static FileManifest fromProperties(Properties properties, Path path) {
        List<Filegroup> groups = new ArrayList<>();
        groups.add(new Filegroup(PRIMARY_FILEGROUP, PRIMARY));
        List<FileEntry> entries = new ArrayList<>();
        for (String key : properties.stringPropertyNames()) {
            if (key.startsWith("filegroup.")) {
                int id = number(key.substring("filegroup.".length()), key, path);
                groups.add(filegroup(id, properties.getProperty(key), path));
            } else if (key.startsWith("file.") && key.endsWith(".name")) {
                String idText = key.substring("file.".length(), key.length() - ".name".length());
                int id = number(idText, key, path);
                int group = integer(properties, "file." + idText + ".filegroup", path);
                String file = properties.getProperty("file." + idText + ".path");
                if (file == null) {
                    throw corrupt(path, "file " + id + " has no path");
                }
                entries.add(fileEntry(id, properties.getProperty(key), group, file, path));
            }
        }
        groups.sort(Comparator.comparingInt(Filegroup::id));
        entries.sort(Comparator.comparingInt(FileEntry::id));
        for (FileEntry entry : entries) {
            if (groups.stream().noneMatch(group -> group.id() == entry.filegroupId())) {
                throw corrupt(path, "file " + entry.name() + " is in filegroup " + entry.filegroupId() + ", which is not listed");
            }
        }
        return new FileManifest(groups, entries);
    }

    private static Filegroup filegroup(int id, String name, Path path) {
        try {
            return new Filegroup(id, name);
        } catch (IllegalArgumentException e) {
            throw corrupt(path, e.getMessage());
        }
    }

    private static FileEntry fileEntry(int id, String name, int filegroupId, String file, Path path) {
        try {
            return new FileEntry(id, name, filegroupId, file);
        } catch (IllegalArgumentException e) {
            throw corrupt(path, e.getMessage());
        }
    }

    /** The filegroups and files beyond the primary ones, a line each, for a person to check. */
    public String describe() {
        StringBuilder text = new StringBuilder();
        for (Filegroup group : filegroups) {
            if (group.id() != PRIMARY_FILEGROUP) {
                text.append("\n  filegroup ").append(group.id()).append(" = ").append(group.name());
            }
        }
        for (FileEntry file : files) {
            text.append("\n  file ").append(file.id()).append(" = ").append(file.name()).append(" in filegroup ")
                    .append(file.filegroupId()).append(" at ").append(file.path());
        }
        return text.isEmpty() ? " (none)" : text.toString();
    }

    /** Replaces the manifest in {@code <db>/data} atomically, as the current format version. */
    public void write(FilesFacade facade, Path dataDirectory) {
        SealedPropertiesFile.replace(facade, dataDirectory.resolve(FILE_NAME), format());
    }

    /** The file's bytes: the header comment, the lines in id order, and the checksum line. */
    byte[] format() {
        StringBuilder text = new StringBuilder(HEADER);
        text.append("format_version=").append(FORMAT_VERSION).append('\n');
        for (Filegroup group : filegroups) {
            if (group.id() != PRIMARY_FILEGROUP) {
                text.append(line("filegroup." + group.id(), group.name()));
            }
        }
        for (FileEntry file : files) {
            text.append(line("file." + file.id() + ".name", file.name()));
            text.append(line("file." + file.id() + ".filegroup", String.valueOf(file.filegroupId())));
            text.append(line("file." + file.id() + ".path", file.path()));
        }
        return SealedPropertiesFile.seal(text.toString());
    }

    /** One {@code key=value} line, escaped as {@link Properties#load} reads it. */
    private static String line(String key, String value) {
        StringBuilder escaped = new StringBuilder();
        for (char c : value.toCharArray()) {
            switch (c) {
                case '\\' -> escaped.append("\\\\");
                case '\n' -> escaped.append("\\n");
                case '\r' -> escaped.append("\\r");
                case '=', ':', '#', '!' -> escaped.append('\\').append(c);
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        escaped.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else if (c == ' ' && escaped.isEmpty()) {
                        escaped.append("\\ ");
                    } else {
                        escaped.append(c);
                    }
                }
            }
        }
        return key + "=" + escaped + "\n";
    }

    private static int integer(Properties properties, String key, Path path) {
        String value = properties.getProperty(key);
        if (value == null) {
            throw corrupt(path, "missing " + key);
        }
        return number(value.trim(), key, path);
    }

    private static int number(String text, String key, Path path) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw corrupt(path, key + " has '" + text + "', not a number");
        }
    }

    private static ColumbaException corrupt(Path path, String what) {
        return new ColumbaException(ErrorCode.FILE_MAGIC_MISMATCH, path + " is damaged: " + what);
    }
}

package dev.columba.storage.file;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
 * rewritten atomically (temporary file, fsync, rename, directory fsync). Filegroup 0 is PRIMARY
 * and file 0 is {@code data/columba.data}; neither is written. Immutable: a change makes a new one.
 */
public record FileManifest(List<Filegroup> filegroups, List<FileEntry> files) {
    public static final String FILE_NAME = "files.properties";
    public static final int FORMAT_VERSION = 1;
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

    /** The manifest in {@code <db>/data}, or the primary-only one when there is none. */
    public static FileManifest read(Path dataDirectory) {
        Path path = dataDirectory.resolve(FILE_NAME);
        if (!Files.exists(path)) {
            return primaryOnly();
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot read " + path + ": " + e.getMessage(), e);
        }
        int version = integer(properties, "format_version", path);
        if (version > FORMAT_VERSION) {
            throw new ColumbaException(ErrorCode.FORMAT_TOO_NEW, path + " has format version " + version
                    + ", newer than this build (" + FORMAT_VERSION + ")");
        }
        if (version < 1) {
            throw new ColumbaException(ErrorCode.FORMAT_TOO_OLD, path + " has format version " + version);
        }
        List<Filegroup> groups = new ArrayList<>();
        groups.add(new Filegroup(PRIMARY_FILEGROUP, PRIMARY));
        List<FileEntry> entries = new ArrayList<>();
        for (String key : properties.stringPropertyNames()) {
            if (key.startsWith("filegroup.")) {
                int id = number(key.substring("filegroup.".length()), key, path);
                groups.add(new Filegroup(id, properties.getProperty(key)));
            } else if (key.startsWith("file.") && key.endsWith(".name")) {
                String idText = key.substring("file.".length(), key.length() - ".name".length());
                int id = number(idText, key, path);
                int group = integer(properties, "file." + idText + ".filegroup", path);
                String file = properties.getProperty("file." + idText + ".path");
                if (file == null) {
                    throw corrupt(path, "file " + id + " has no path");
                }
                entries.add(new FileEntry(id, properties.getProperty(key), group, file));
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

    /** Replaces the manifest in {@code <db>/data} atomically. */
    public void write(FilesFacade facade, Path dataDirectory) {
        StringBuilder text = new StringBuilder("# Columba filegroups and files (docs/format/database-directory.md)\n");
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
        Path temporary = dataDirectory.resolve(FILE_NAME + ".tmp");
        try (Writer writer = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
            writer.write(text.toString());
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot write " + temporary + ": " + e.getMessage(), e);
        }
        try (FileHandle handle = facade.open(temporary, FilesFacade.OpenMode.READ_WRITE, false)) {
            handle.force(true);
        }
        try {
            Files.move(temporary, dataDirectory.resolve(FILE_NAME), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot replace " + dataDirectory.resolve(FILE_NAME) + ": " + e, e);
        }
        facade.syncDirectory(dataDirectory);
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

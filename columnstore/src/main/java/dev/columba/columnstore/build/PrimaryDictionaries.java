package dev.columba.columnstore.build;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.TableSchema;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import java.io.IOException;
import dev.columba.columnstore.file.SegmentIo;
import dev.columba.storage.io.MemoryMapping;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A table's primary dictionaries, one per string column at most: built from the first rowgroup
 * compressed, then shared by every later rowgroup of the column, each of which keeps only the
 * values it adds in its secondary dictionary. Stored as immutable files {@code dict-<column>.cdict}
 * beside the rowgroup files (segment.md has the dictionary format), written and synced before any
 * rowgroup that refers to them commits. Thread-safe.
 */
public final class PrimaryDictionaries {
    /** The primary dictionary's id in segment metadata. */
    public static final int PRIMARY_ID = 0;

    private final FilesFacade files;
    private final Path directory;
    private final TableSchema schema;
    private final ConcurrentHashMap<Integer, Dictionary> loaded = new ConcurrentHashMap<>();

    public PrimaryDictionaries(FilesFacade files, Path directory, TableSchema schema) {
        this.files = files;
        this.directory = directory;
        this.schema = schema;
    }

    public Path file(int column) {
        return directory.resolve("dict-" + column + ".cdict");
    }

    /** The column's primary dictionary, or null if none was built yet (reads uncounted: builds, views). */
    public Dictionary get(int column) {
        return get(column, null);
    }

    /**
     * The column's primary dictionary, or null if none was built yet. The first use reads the file
     * through a mapping, so a scan's {@code io} reads it ahead and counts its pages as lob reads
     * (logical, read-ahead or physical) exactly as it counts the segments that refer to it.
     */
    public Dictionary get(int column, SegmentIo io) {
        Dictionary dictionary = loaded.get(column);
        if (dictionary != null) {
            return dictionary;
        }
        Path path = file(column);
        if (!Files.exists(path)) {
            return null;
        }
        byte[] bytes;
        try (FileHandle file = files.open(path, FilesFacade.OpenMode.READ, false);
                Arena arena = Arena.ofConfined()) {
            long size = file.size();
            MemorySegment mapping = MemoryMapping.mapReadOnly(file, size, arena);
            if (io != null) {
                io.readAheadDictionary(mapping);
                io.touchDictionary(mapping, 0, size);
            }
            bytes = mapping.toArray(ValueLayout.JAVA_BYTE);
            if (io != null) {
                io.release(mapping);
            }
        }
        dictionary = Dictionary.read(MemorySegment.ofArray(bytes), schema.column(column).type(), path.toString());
        Dictionary previous = loaded.putIfAbsent(column, dictionary);
        return previous != null ? previous : dictionary;
    }

    /** Stores a newly built primary dictionary (durably) and returns it. */
    Dictionary store(int column, Dictionary dictionary) {
        Path path = file(column);
        Path temporary = directory.resolve(path.getFileName() + ".tmp");
        try (FileHandle file = files.open(temporary, FilesFacade.OpenMode.CREATE, false)) {
            file.truncate(0);
            file.write(0, MemorySegment.ofArray(dictionary.toBytes()));
            file.force(true);
        }
        try {
            Files.move(temporary, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot move " + temporary + " to " + path + ": " + e, e);
        }
        files.syncDirectory(directory);
        loaded.put(column, dictionary);
        return dictionary;
    }
}

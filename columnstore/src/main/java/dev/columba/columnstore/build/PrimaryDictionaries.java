package dev.columba.columnstore.build;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.file.CheckedObjects;
import dev.columba.columnstore.file.ColumnstoreFiles;
import dev.columba.columnstore.file.DictionaryFile;
import dev.columba.columnstore.file.SegmentIo;
import dev.columba.core.schema.TableSchema;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import dev.columba.storage.io.MemoryMapping;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A table's primary dictionaries, one per string column at most: built from the first rowgroup
 * compressed, then shared by every later rowgroup of the column, each of which keeps only the
 * values it adds in its secondary dictionary. Stored as immutable files {@code dict-<column>.cdict}
 * beside the rowgroup files (dictionary-file.md; segment.md has the dictionary inside), written and
 * synced before any rowgroup that refers to them commits, and checked against their checksum when
 * read. Thread-safe.
 */
public final class PrimaryDictionaries {
    /** The primary dictionary's id in segment metadata. */
    public static final int PRIMARY_ID = 0;

    private final FilesFacade files;
    private final Path directory;
    private final TableSchema schema;
    private final CheckedObjects checked;
    private final ConcurrentHashMap<Integer, Dictionary> loaded = new ConcurrentHashMap<>();

    /** {@code checked}: the database's dictionaries read by earlier statements, reused when their files are unchanged. */
    public PrimaryDictionaries(FilesFacade files, Path directory, TableSchema schema, CheckedObjects checked) {
        this.files = files;
        this.directory = directory;
        this.schema = schema;
        this.checked = checked;
    }

    public Path file(int column) {
        return directory.resolve(ColumnstoreFiles.dictionaryFileName(column));
    }

    /** The column's primary dictionary, or null if none was built yet (reads uncounted: builds, views). */
    public Dictionary get(int column) {
        return get(column, null);
    }

    /**
     * The column's primary dictionary, or null if none was built yet. The first use reads the file
     * through a mapping, so a scan's {@code io} reads it ahead and counts its pages as lob reads
     * (logical, read-ahead or physical) exactly as it counts the segments that refer to it. Scans
     * running in parallel load a dictionary once: the others wait for it, so its reads are counted once.
     */
    public Dictionary get(int column, SegmentIo io) {
        Dictionary dictionary = loaded.get(column);
        if (dictionary != null) {
            return dictionary;
        }
        synchronized (this) {
            dictionary = loaded.get(column);
            return dictionary != null ? dictionary : load(column, io);
        }
    }

    private Dictionary load(int column, SegmentIo io) {
        Dictionary dictionary;
        Path path = file(column);
        if (!Files.exists(path)) {
            return null;
        }
        byte[] bytes = null;
        try (FileHandle file = files.open(path, FilesFacade.OpenMode.READ, false);
                Arena arena = Arena.ofConfined()) {
            long size = file.size();
            MemorySegment mapping = MemoryMapping.mapReadOnly(file, size, arena);
            if (io != null) {
                io.readAheadDictionary(mapping);
                io.touchDictionary(mapping, 0, size);
            }
            // Read by an earlier statement from the same bytes: the same dictionary, checked then.
            dictionary = checked.primaryDictionary(path, mapping);
            if (dictionary == null) {
                bytes = mapping.toArray(ValueLayout.JAVA_BYTE);
            }
            if (io != null) {
                io.release(mapping);
            }
        }
        if (dictionary == null) {
            // Checked on the copy, the bytes the dictionary keeps: a mapping could change under the check.
            dictionary = DictionaryFile.read(MemorySegment.ofArray(bytes), path, schema.column(column).type());
            checked.rememberPrimaryDictionary(path, bytes, dictionary);
        }
        Dictionary previous = loaded.putIfAbsent(column, dictionary);
        return previous != null ? previous : dictionary;
    }

    /** Stores a newly built primary dictionary (durably) and returns it. */
    Dictionary store(int column, Dictionary dictionary) {
        DictionaryFile.write(files, file(column), dictionary.bytes());
        loaded.put(column, dictionary);
        return dictionary;
    }
}

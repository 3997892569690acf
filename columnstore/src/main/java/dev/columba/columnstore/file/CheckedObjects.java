package dev.columba.columnstore.file;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.storage.db.Database;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a database's scans have already checked, so that a statement does not redo, from the same
 * bytes, the checks an earlier statement did: a short query over small tables spent a quarter of
 * its time re-reading primary dictionaries and re-checking every run of its segments (TPC-H Q2:
 * docs/design/columnstore.md, "Checked once per database"). One per open database
 * ({@link #of}); thread-safe.
 *
 * <p>Nothing here skips a read or a checksum: every statement still maps, touches (and counts) and
 * checksums the bytes it uses, so I/O counters and corruption detection are as before. What is
 * remembered is only the outcome of checks that are a function of those bytes:
 * <ul>
 * <li><b>Structure of a blob</b> (a segment's runs and NULL bitmap, a secondary dictionary's
 *     entries), keyed by file, offset, length and checksum. A blob is remembered only after its
 *     checksum was verified in the opening that checked it, and used only when the checksum was
 *     verified again in the opening that skips the check: the same bytes, unless the checksum
 *     collides.
 * <li><b>Primary dictionaries</b>, read once into memory, kept with the file's bytes they were
 *     read from, and handed out again only when the file's bytes, compared in full, are still the
 *     same. A replaced or damaged file is read and checked afresh.
 * </ul>
 * Both are bounded ({@link #MAX_BLOBS} keys, {@link #dictionaryBudget} bytes) and forget
 * everything (blobs) or the least recently used (dictionaries) when full.
 */
public final class CheckedObjects {
    /** Most blob keys remembered; the set is emptied when it reaches this (a key is ~100 bytes). */
    static final int MAX_BLOBS = 1 << 16;

    private final Set<Blob> checkedBlobs = ConcurrentHashMap.newKeySet();
    private final long dictionaryBudget;
    private final LinkedHashMap<Path, KnownDictionary> dictionaries = new LinkedHashMap<>(16, 0.75f, true);
    private long dictionaryBytes;

    private record Blob(Path file, long offset, long length, int checksum) {
    }

    private record KnownDictionary(byte[] fileBytes, Dictionary dictionary) {
    }

    CheckedObjects(long dictionaryBudget) {
        this.dictionaryBudget = dictionaryBudget;
    }

    /** Checked objects that keep no dictionary: for dictionaries read outside a database (tests, tools). */
    public static CheckedObjects unshared() {
        return new CheckedObjects(0);
    }

    /** The database's checked objects; dictionaries kept up to an eighth of the heap, at most 256 MB. */
    public static CheckedObjects of(Database database) {
        return database.extension(CheckedObjects.class,
                () -> new CheckedObjects(Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 8)));
    }

    /** Reads a blob, told whether its structure needs checking. */
    @FunctionalInterface
    public interface BlobReader<T> {
        /** Reads the blob, checking its structure unless {@code checked}. */
        T read(boolean checked);
    }

    /**
     * Reads blob {@code blob} of {@code file}, whose checksum this opening verified, through
     * {@code reader}: told the structure was checked when an earlier opening checked these bytes,
     * and remembered as checked once the reader returns (it throws on a bad structure).
     */
    public <T> T read(RowgroupFile file, int blob, BlobReader<T> reader) {
        if (!file.verified(blob)) {
            throw new IllegalStateException("blob " + blob + " of " + file.path() + " was not verified");
        }
        Blob key = key(file, blob);
        boolean known = checkedBlobs.contains(key);
        T read = reader.read(known);
        if (!known) {
            if (checkedBlobs.size() >= MAX_BLOBS) {
                checkedBlobs.clear();
            }
            checkedBlobs.add(key);
        }
        return read;
    }

    private static Blob key(RowgroupFile file, int blob) {
        return new Blob(file.path(), file.segmentOffset(blob), file.segmentLength(blob), file.segmentChecksum(blob));
    }

    /**
     * The primary dictionary read earlier from the file at {@code path}, if the file's bytes
     * {@code file} are byte for byte the ones it was read from; null otherwise. Comparing touches
     * every byte, as reading would: the caller counts those reads either way.
     */
    public synchronized Dictionary primaryDictionary(Path path, MemorySegment file) {
        KnownDictionary known = dictionaries.get(path);
        if (known == null || known.fileBytes.length != file.byteSize()
                || file.mismatch(MemorySegment.ofArray(known.fileBytes)) != -1) {
            return null;
        }
        return known.dictionary;
    }

    /** Remembers {@code dictionary}, read and checked from {@code fileBytes}, the whole file at {@code path}. */
    public synchronized void rememberPrimaryDictionary(Path path, byte[] fileBytes, Dictionary dictionary) {
        KnownDictionary previous = dictionaries.remove(path);
        if (previous != null) {
            dictionaryBytes -= previous.fileBytes.length;
        }
        if (fileBytes.length > dictionaryBudget) {
            return;
        }
        var eldest = dictionaries.entrySet().iterator();
        while (dictionaryBytes + fileBytes.length > dictionaryBudget && eldest.hasNext()) {
            Map.Entry<Path, KnownDictionary> entry = eldest.next();
            dictionaryBytes -= entry.getValue().fileBytes.length;
            eldest.remove();
        }
        dictionaries.put(path, new KnownDictionary(fileBytes, dictionary));
        dictionaryBytes += fileBytes.length;
    }
}

package dev.columba.columnstore.file;

import dev.columba.storage.db.Database;
import dev.columba.storage.io.FilesFacade;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The rowgroup files a database's scans have mapped, kept mapped between statements. A short query
 * over small tables spent a fifth of its time mapping each file, faulting its pages into the new
 * mapping one by one (the kernel's page cache held them; the process's page tables did not) and
 * parsing and checking its footer, then unmapping it at the end of the statement (TPC-H Q2:
 * docs/design/columnstore.md, "Mappings kept between statements"). One per open database
 * ({@link #of}); thread-safe.
 *
 * <p>A kept mapping is handed out again only when it is still the file at that path and still
 * holds the bytes it was checked from:
 * <ul>
 * <li>the path's file identity, size and modification time ({@code stat}) equal those seen before
 *     it was mapped: a file replaced by a rename (every rowgroup file is written so) or changed is
 *     mapped afresh, while statements that hold the old mapping keep reading the old file;
 * <li>the header's and footer's checksums, computed again over the mapping, equal those parsed: a
 *     change written into the file in place shows through a shared mapping, and is then checked
 *     (and reported) as a new opening would.
 * </ul>
 * Every other check and count is the opening's own, as before: each opening verifies the
 * checksums of the segments it reads, and its scan's {@code mincore} checks still say which pages
 * came from storage (pages a kept mapping has touched are resident, as they were in the page cache).
 *
 * <p>A mapping is unmapped when nothing uses it and it is no longer kept: when more than
 * {@link #MAX_FILES} are kept (the least recently used idle one goes), when its file is deleted
 * through {@link #forget}/{@link #forgetUnder}, and for {@code DBCC DROPCLEANBUFFERS} and the
 * database's close ({@link #releaseFiles}): {@code POSIX_FADV_DONTNEED} cannot drop pages a process
 * has mapped, so a cold run would otherwise be warm.
 */
public final class RowgroupMappings implements Database.FileCache {
    /** Most idle mappings kept: each holds a file's virtual address range and a few hundred bytes of footer. */
    static final int MAX_FILES = 1024;

    /** Kept mappings by path, least recently used first. Guarded by {@code this}. */
    private final LinkedHashMap<Path, Kept> kept = new LinkedHashMap<>(64, 0.75f, true);

    /** What {@code stat} says of a file: a different value means a different or changed file. */
    private record Identity(Object fileKey, long size, FileTime modified) {
        static Identity of(Path path) {
            try {
                BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
                return new Identity(attributes.fileKey(), attributes.size(), attributes.lastModifiedTime());
            } catch (IOException e) {
                // Missing or unreadable: the opening that follows fails with its own error.
                return null;
            }
        }
    }

    /** A mapping and its openings in use; unmapped when none is and it is no longer kept. Guarded by the owner. */
    private static final class Kept {
        final RowgroupFile.Mapped file;
        final Identity identity;
        int users;
        boolean inMap = true;

        Kept(RowgroupFile.Mapped file, Identity identity) {
            this.file = file;
            this.identity = identity;
        }
    }

    /** The database's kept mappings. */
    public static RowgroupMappings of(Database database) {
        return database.extension(RowgroupMappings.class, RowgroupMappings::new);
    }

    /**
     * Opens the rowgroup file at {@code path} for a scan: over the kept mapping when it is still the
     * file's, else mapped and checked afresh (and kept). Closing the opening hands the mapping back.
     *
     * @throws dev.columba.core.error.ColumbaException as {@link RowgroupFile#open}
     */
    public RowgroupFile open(FilesFacade files, Path path) {
        Identity identity = Identity.of(path);
        Kept reused = identity == null ? null : acquireKept(path, identity);
        if (reused != null) {
            if (reused.file.unchanged()) {
                return opening(reused);
            }
            forget(path);
            release(reused);
        }
        RowgroupFile.Mapped mapped = RowgroupFile.Mapped.map(files, path);
        if (identity == null) {
            return new RowgroupFile(mapped, mapped::unmap);
        }
        Kept fresh = new Kept(mapped, identity);
        fresh.users = 1;
        List<Kept> idle = new ArrayList<>();
        synchronized (this) {
            Kept previous = kept.put(path, fresh);
            if (previous != null) {
                previous.inMap = false;
                if (previous.users == 0) {
                    idle.add(previous);
                }
            }
            Iterator<Kept> eldest = kept.values().iterator();
            while (kept.size() > MAX_FILES && eldest.hasNext()) {
                Kept candidate = eldest.next();
                if (candidate.users == 0) {
                    eldest.remove();
                    candidate.inMap = false;
                    idle.add(candidate);
                }
            }
        }
        unmapAll(idle);
        return opening(fresh);
    }

    private synchronized Kept acquireKept(Path path, Identity identity) {
        Kept found = kept.get(path);
        if (found == null || !found.identity.equals(identity)) {
            return null;
        }
        found.users++;
        return found;
    }

    private RowgroupFile opening(Kept use) {
        return new RowgroupFile(use.file, () -> release(use));
    }

    private void release(Kept use) {
        boolean unmap;
        synchronized (this) {
            use.users--;
            unmap = use.users == 0 && !use.inMap;
        }
        if (unmap) {
            use.file.unmap();
        }
    }

    /** Stops keeping the mapping of {@code path} (its file is about to be deleted); unmapped once idle. */
    public void forget(Path path) {
        forgetWhere(path::equals);
    }

    /** Stops keeping the mappings of every file under {@code directory} (a dropped table's). */
    public void forgetUnder(Path directory) {
        forgetWhere(path -> path.startsWith(directory));
    }

    /**
     * Stops keeping every mapping (DBCC DROPCLEANBUFFERS, the database's close): the idle ones are
     * unmapped now, those a running statement uses when it is done with them.
     */
    @Override
    public void releaseFiles() {
        forgetWhere(path -> true);
    }

    private void forgetWhere(Predicate<Path> which) {
        List<Kept> idle = new ArrayList<>();
        synchronized (this) {
            Iterator<Map.Entry<Path, Kept>> entries = kept.entrySet().iterator();
            while (entries.hasNext()) {
                Map.Entry<Path, Kept> entry = entries.next();
                if (which.test(entry.getKey())) {
                    Kept found = entry.getValue();
                    entries.remove();
                    found.inMap = false;
                    if (found.users == 0) {
                        idle.add(found);
                    }
                }
            }
        }
        unmapAll(idle);
    }

    /** Whether a mapping of {@code path} is kept (it may still turn out stale when opened). */
    public synchronized boolean keeps(Path path) {
        return kept.containsKey(path);
    }

    /** Mappings kept now (in use or idle). */
    public synchronized int keptCount() {
        return kept.size();
    }

    private static void unmapAll(List<Kept> idle) {
        for (Kept each : idle) {
            each.file.unmap();
        }
    }
}

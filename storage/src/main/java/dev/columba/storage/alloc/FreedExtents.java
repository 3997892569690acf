package dev.columba.storage.alloc;

import dev.columba.storage.page.PageFormat;
import java.util.HashMap;
import java.util.Map;

/**
 * The extents that had a page or the whole extent freed since the redo point of the last finished
 * checkpoint. The log may still hold records of their pages that recovery replays; a minimally
 * logged page (written straight to the data file, not logged) must not be put there, or recovery
 * would replay the page's older contents over it (docs/design/storage.md, "Minimally logged bulk
 * loads"). Pages of any other extent have no record at or after the redo point, so nothing can be
 * replayed over them.
 *
 * <p>Conservative: a free that rolls back stays listed until the next checkpoint finishes. Each
 * free is stamped with the generation current when it happened. A checkpoint takes a new generation
 * while no transaction runs ({@link #redoPointChosen}); once its control file is written every
 * free of an older generation committed before its redo point, so {@link #checkpointFinished}
 * forgets them. Frees of later generations (made while the checkpoint wrote pages) stay.
 *
 * <p>Thread-safe: the writer records frees and asks, a checkpoint's thread moves the generation.
 */
public final class FreedExtents {
    private final Map<Long, Long> generationByExtent = new HashMap<>();
    private long generation;

    /** A page of {@code extent} (a global extent number) was freed, or the extent itself. */
    public synchronized void freed(long extent) {
        generationByExtent.put(extent, generation);
    }

    /** Whether the extent of {@code pageId} may have records in the log that recovery replays. */
    public synchronized boolean freedSinceRedoPoint(long pageId) {
        return generationByExtent.containsKey(PageFormat.extentOf(pageId));
    }

    /**
     * Called while no write transaction runs, as a checkpoint chooses its redo point.
     *
     * @return the generation to pass to {@link #checkpointFinished} once the checkpoint is durable
     */
    public synchronized long redoPointChosen() {
        return generation++;
    }

    /** The checkpoint of {@code chosenGeneration} is recorded in the control file. */
    public synchronized void checkpointFinished(long chosenGeneration) {
        generationByExtent.values().removeIf(freedIn -> freedIn <= chosenGeneration);
    }

    /** Extents listed now, for tests. */
    public synchronized int size() {
        return generationByExtent.size();
    }
}

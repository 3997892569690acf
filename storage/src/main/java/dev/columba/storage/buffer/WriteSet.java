package dev.columba.storage.buffer;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.page.PageFormat;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The private page copies of one write transaction. Reading through a write set sees the
 * transaction's own changes; everyone else keeps seeing the committed pages until
 * {@link #install} publishes the copies. Rolling back is dropping the copies.
 *
 * <p>Each modified page keeps its committed version pinned as the base that commit diffs against
 * to log only the changed bytes. Owned by one thread.
 */
public final class WriteSet implements PageReader, AutoCloseable {
    private final BufferPool pool;
    private final int maxPages;
    private final Map<Long, Entry> entries = new LinkedHashMap<>();
    private final IoCounters systemCounters;
    /** Frames held: one per copy plus one per pinned base. */
    private int heldFrames;

    /** A modified page: its private copy and the committed version it started from (null if new). */
    public record Entry(long pageId, Frame copy, PageRef base) {
        /** The private copy's bytes. */
        public MemorySegment page() {
            return copy.memory;
        }

        /** The committed bytes the copy started from, or null for a page created by the transaction. */
        public MemorySegment basePage() {
            return base == null ? null : base.page();
        }
    }

    /**
     * @param maxPages the most frames this transaction may hold (copies plus pinned bases)
     * @param systemCounters where reads the transaction makes for itself are charged
     */
    public WriteSet(BufferPool pool, int maxPages, IoCounters systemCounters) {
        this.pool = pool;
        this.maxPages = maxPages;
        this.systemCounters = systemCounters;
    }

    /** Reads a page as this transaction sees it. */
    @Override
    public PageRef read(long pageId, Access access, IoCounters counters) {
        Entry entry = entries.get(pageId);
        if (entry != null) {
            return new PageRef(entry.copy(), 0, true);
        }
        return pool.read(pageId, access, counters);
    }

    /** The transaction's writable copy of an existing page, made on first use. */
    public PageRef modify(long pageId, IoCounters counters) {
        Entry entry = entries.get(pageId);
        if (entry == null) {
            reserve(2);
            PageRef base = pool.read(pageId, Access.RANDOM, counters);
            Frame copy;
            try {
                copy = pool.obtainPrivateFrame(pageId);
            } catch (RuntimeException e) {
                base.close();
                throw e;
            }
            MemorySegment.copy(base.page(), 0, copy.memory, 0, PageFormat.PAGE_SIZE);
            entry = new Entry(pageId, copy, base);
            entries.put(pageId, entry);
            heldFrames += 2;
        }
        return new PageRef(entry.copy(), 0, true);
    }

    /**
     * A writable, zeroed page for {@code pageId}, which the transaction just allocated: whatever
     * the page held before is not read.
     */
    public PageRef create(long pageId) {
        Entry entry = entries.get(pageId);
        if (entry == null) {
            reserve(1);
            Frame copy = pool.obtainPrivateFrame(pageId);
            entry = new Entry(pageId, copy, null);
            entries.put(pageId, entry);
            heldFrames += 1;
        } else if (entry.base() != null) {
            // Freed and reallocated within the transaction: the old content no longer matters.
            entry.base().close();
            entry = new Entry(pageId, entry.copy(), null);
            entries.put(pageId, entry);
            heldFrames -= 1;
        }
        entry.copy().memory.fill((byte) 0);
        return new PageRef(entry.copy(), 0, true);
    }

    @Override
    public BufferPool bufferPool() {
        return pool;
    }

    public boolean isModified(long pageId) {
        return entries.containsKey(pageId);
    }

    public int size() {
        return entries.size();
    }

    /** The modified pages in the order they were first modified. */
    public List<Entry> entries() {
        return Collections.unmodifiableList(new ArrayList<>(entries.values()));
    }

    IoCounters systemCounters() {
        return systemCounters;
    }

    private void reserve(int frames) {
        if (heldFrames + frames > maxPages) {
            throw new ColumbaException(ErrorCode.TRANSACTION_TOO_LARGE, "the transaction changed " + entries.size()
                    + " pages and may hold at most " + maxPages + " frames of the buffer pool"
                    + " (transaction_max_buffer_percent); commit in smaller transactions or raise buffer_pool_size");
        }
    }

    /** The LSN to pass to {@link #install} for a copy that ended up identical to its base. */
    public static final long UNCHANGED = -1;

    /**
     * Publishes every copy as the committed version of its page, stamped with its log position.
     *
     * @param lsns the LSN of each entry's log record, in {@link #entries()} order, or
     *             {@link #UNCHANGED} for a copy that is dropped because it equals its base
     */
    public void install(long[] lsns) {
        int index = 0;
        for (Entry entry : entries.values()) {
            long lsn = lsns[index++];
            if (lsn == UNCHANGED) {
                pool.releasePrivate(entry.copy());
            } else {
                pool.install(entry.copy(), lsn);
            }
            if (entry.base() != null) {
                entry.base().close();
            }
        }
        entries.clear();
        heldFrames = 0;
    }

    /** Drops every copy: the transaction rolled back. */
    @Override
    public void close() {
        for (Entry entry : entries.values()) {
            pool.releasePrivate(entry.copy());
            if (entry.base() != null) {
                entry.base().close();
            }
        }
        entries.clear();
        heldFrames = 0;
    }
}

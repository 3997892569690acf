package dev.columba.storage.buffer;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The private page copies of one write transaction. Reading through a write set sees the
 * transaction's own changes; everyone else keeps seeing the committed pages until
 * {@link #install} publishes the copies. Rolling back is dropping the copies.
 *
 * <p>A modified page keeps its committed version pinned as the base that commit diffs against to
 * log only the changed bytes. The transaction may hold at most {@code maxPages} frames (copies plus
 * pinned bases). Beyond that, with a {@link SpillFile}, the least recently used copies that nobody
 * has pinned are written there and their frames (and bases) given back; a spilled copy is read
 * back when the transaction touches the page again, and commit logs it as a full image, read from
 * the spill file, and installs it through a frame of its own. So a transaction of any size fits a
 * small pool, and the data file still never holds uncommitted data (docs/design/storage.md,
 * "Transactions larger than the pool"). Without a spill file the limit is a hard one
 * ({@link ErrorCode#TRANSACTION_TOO_LARGE}). The one exception is a minimally logged transaction
 * ({@link #enableMinimalLogging}): the pages it creates leave memory for their own place in the data
 * file, which was free space, and are not logged ("Minimally logged bulk loads").
 *
 * <p>A private copy stays in memory while a {@link PageRef} to it is open: callers must not use a
 * page after closing its reference. Owned by the transaction's thread; its methods are
 * synchronized all the same (looking a page up reorders the recently-used list), so that threads
 * of a parallel plan may read through it while nobody changes pages.
 */
public final class WriteSet implements PageReader, AutoCloseable {
    /** Copies spilled at once, in one write where their slots are consecutive. */
    private static final int SPILL_BATCH = 32;

    private final BufferPool pool;
    private final int maxPages;
    /** Every modified page, in the order first modified. */
    private final Map<Long, Entry> entries = new LinkedHashMap<>();
    /** The entries whose copy is in memory, least recently used first. */
    private final LinkedHashMap<Long, Entry> resident = new LinkedHashMap<>(16, 0.75f, true);
    private final IoCounters systemCounters;
    private final SpillFile spill;
    private Arena stagingArena;
    private MemorySegment staging;
    /** The spill slots whose pages {@link #staging} holds for {@link #spilledImage}: [first, first + count). */
    private long stagedFirstSlot = -1;
    private int stagedCount;
    /** Frames held: one per resident copy plus one per pinned base. */
    private int heldFrames;
    private int spilledEntries;
    /**
     * Which created pages may be minimally logged, by page id; null while the transaction logs
     * every page (the default).
     */
    private java.util.function.LongPredicate minimalLogging;
    /** Minimally logged pages written to the data file, rewrites included. */
    private long minimallyLoggedWrites;

    /** A modified page: its private copy, where it was spilled, and the committed version it started from. */
    public static final class Entry {
        private final long pageId;
        /** The private copy; null while the page is spilled. */
        private Frame copy;
        /** The pinned committed version, or null for a new page or one spilled (commit then logs an image). */
        private PageRef base;
        /** Slot in the spill file once spilled, else -1. */
        private long slot = -1;
        /** Whether the copy in memory may differ from the spilled slot. */
        private boolean changedSinceSpill = true;
        /** The page's object id when it was last spilled (a spilled page is not read to find it). */
        private int spilledObjectId;
        /**
         * Whether the transaction created the page (it was free when the transaction first touched it):
         * only such a page may be minimally logged.
         */
        private boolean created;
        /**
         * Whether the page is minimally logged: written to the data file at its own place when it
         * leaves memory and at commit, never logged. Decided when it is first spilled or committed.
         */
        private boolean minimallyLogged;
        /** Open references to the copy; it is not spilled while any is open. Closed from any thread. */
        private final AtomicInteger pins = new AtomicInteger();

        private Entry(long pageId, Frame copy, PageRef base) {
            this.pageId = pageId;
            this.copy = copy;
            this.base = base;
        }

        public long pageId() {
            return pageId;
        }

        /** Whether the copy is in memory; a spilled copy is read with {@link WriteSet#spilledImage}. */
        public boolean resident() {
            return copy != null;
        }

        /** The private copy's bytes; only while {@link #resident()}. */
        public MemorySegment page() {
            if (copy == null) {
                throw new IllegalStateException("page " + pageId + " is spilled");
            }
            return copy.memory;
        }

        /**
         * The committed bytes the copy started from, or null for a page created by the transaction
         * or spilled: its commit logs a full image.
         */
        public MemorySegment basePage() {
            return base == null ? null : base.page();
        }

        /** The object the page belongs to. */
        public int objectId() {
            return copy != null ? Page.objectId(copy.memory) : spilledObjectId;
        }

        /** Whether the page goes to the data file instead of the log (see {@link WriteSet#enableMinimalLogging}). */
        public boolean minimallyLogged() {
            return minimallyLogged;
        }

        /** The spill slot, -1 if never spilled. */
        long slot() {
            return slot;
        }

        void unpin() {
            pins.decrementAndGet();
        }
    }

    /**
     * A write set whose limit is hard: beyond {@code maxPages} it fails with
     * {@link ErrorCode#TRANSACTION_TOO_LARGE}.
     *
     * @param maxPages the most frames this transaction may hold (copies plus pinned bases)
     * @param systemCounters where reads the transaction makes for itself are charged
     */
    public WriteSet(BufferPool pool, int maxPages, IoCounters systemCounters) {
        this(pool, maxPages, systemCounters, null);
    }

    /**
     * @param spill where copies beyond {@code maxPages} go, or null for a hard limit; the write set
     *     uses it alone until it ends (install or close), which empties it
     */
    public WriteSet(BufferPool pool, int maxPages, IoCounters systemCounters, SpillFile spill) {
        if (maxPages < 2) {
            throw new IllegalArgumentException("a write set needs at least 2 frames, given " + maxPages);
        }
        this.pool = pool;
        this.maxPages = maxPages;
        this.systemCounters = systemCounters;
        this.spill = spill;
    }

    /** Reads a page as this transaction sees it. A private copy is read only through this reference. */
    @Override
    public synchronized PageRef read(long pageId, Access access, IoCounters counters) {
        Entry entry = entries.get(pageId);
        if (entry != null) {
            makeResident(entry);
            return pin(entry, false);
        }
        return pool.read(pageId, access, counters);
    }

    /** The transaction's writable copy of an existing page, made on first use. */
    public synchronized PageRef modify(long pageId, IoCounters counters) {
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
            resident.put(pageId, entry);
            heldFrames += 2;
        } else {
            makeResident(entry);
        }
        entry.changedSinceSpill = true;
        return pin(entry, true);
    }

    /**
     * A writable, zeroed page for {@code pageId}, which the transaction just allocated: whatever
     * the page held before is not read.
     */
    public synchronized PageRef create(long pageId) {
        Entry entry = entries.get(pageId);
        if (entry == null) {
            reserve(1);
            Frame copy = pool.obtainPrivateFrame(pageId);
            entry = new Entry(pageId, copy, null);
            entry.created = true;
            entries.put(pageId, entry);
            resident.put(pageId, entry);
            heldFrames += 1;
        } else {
            makeResident(entry);
            if (entry.base != null) {
                // Freed and reallocated within the transaction: the old content no longer matters.
                entry.base.close();
                entry.base = null;
                heldFrames -= 1;
            }
        }
        entry.changedSinceSpill = true;
        entry.copy.memory.fill((byte) 0);
        return pin(entry, true);
    }

    private PageRef pin(Entry entry, boolean writable) {
        entry.pins.incrementAndGet();
        return new PageRef(entry.copy, 0, writable, entry);
    }

    @Override
    public BufferPool bufferPool() {
        return pool;
    }

    public synchronized boolean isModified(long pageId) {
        return entries.containsKey(pageId);
    }

    public synchronized int size() {
        return entries.size();
    }

    /** Modified pages whose copy is in the spill file now, not in memory. */
    public synchronized int spilledPages() {
        return spilledEntries;
    }

    /** The modified pages in the order they were first modified. */
    public synchronized List<Entry> entries() {
        return Collections.unmodifiableList(new ArrayList<>(entries.values()));
    }

    IoCounters systemCounters() {
        return systemCounters;
    }

    // ---- the frame budget and spilling --------------------------------------------------------

    /** Makes room for {@code frames} more, spilling the coldest unpinned copies if needed. */
    private void reserve(int frames) {
        while (heldFrames + frames > maxPages) {
            if (spill == null || !spillColdest()) {
                throw new ColumbaException(ErrorCode.TRANSACTION_TOO_LARGE, "the transaction changed " + entries.size()
                        + " pages and may hold at most " + maxPages + " frames of the buffer pool"
                        + (spill == null ? " (transaction_max_buffer_percent); commit in smaller transactions or raise"
                                + " buffer_pool_size"
                                : ", every one of them in use at once (transaction_max_buffer_percent); raise"
                                + " buffer_pool_size"));
            }
        }
    }

    /**
     * Writes up to {@link #SPILL_BATCH} of the least recently used unpinned copies to the spill
     * file and gives back their frames and bases. A copy unchanged since it was last spilled is not
     * written again. Nothing changes if the write fails.
     *
     * @return false if every copy is pinned
     */
    private boolean spillColdest() {
        int batch = Math.max(1, Math.min(SPILL_BATCH, maxPages / 4));
        List<Entry> victims = new ArrayList<>(batch);
        for (Entry entry : resident.values()) {
            if (entry.pins.get() == 0) {
                victims.add(entry);
                if (victims.size() == batch) {
                    break;
                }
            }
        }
        if (victims.isEmpty()) {
            return false;
        }
        // New slots first, so that they are consecutive in the staging buffer: one write for them all.
        List<Entry> fresh = new ArrayList<>();
        List<Entry> rewritten = new ArrayList<>();
        for (Entry victim : victims) {
            if (decideMinimalLogging(victim)) {
                if (victim.changedSinceSpill) {
                    pool.writeMinimallyLogged(victim.pageId, victim.copy.memory);
                    minimallyLoggedWrites++;
                }
            } else if (victim.slot < 0) {
                fresh.add(victim);
            } else if (victim.changedSinceSpill) {
                rewritten.add(victim);
            }
        }
        MemorySegment buffer = staging();
        stagedFirstSlot = -1;
        if (!fresh.isEmpty()) {
            for (int index = 0; index < fresh.size(); index++) {
                MemorySegment.copy(fresh.get(index).copy.memory, 0, buffer, (long) index * PageFormat.PAGE_SIZE,
                        PageFormat.PAGE_SIZE);
            }
            long firstSlot = spill.slotCount();
            spill.write(firstSlot, buffer, fresh.size());
            for (int index = 0; index < fresh.size(); index++) {
                fresh.get(index).slot = spill.allocateSlot();
            }
        }
        for (Entry entry : rewritten) {
            MemorySegment.copy(entry.copy.memory, 0, buffer, 0, PageFormat.PAGE_SIZE);
            spill.write(entry.slot, buffer, 1);
        }
        for (Entry victim : victims) {
            victim.spilledObjectId = Page.objectId(victim.copy.memory);
            victim.changedSinceSpill = false;
            pool.releasePrivate(victim.copy);
            victim.copy = null;
            heldFrames--;
            if (victim.base != null) {
                victim.base.close();
                victim.base = null;
                heldFrames--;
            }
            resident.remove(victim.pageId);
            spilledEntries++;
        }
        return true;
    }

    /** Brings a spilled copy back into a frame (marking it most recently used either way). */
    private void makeResident(Entry entry) {
        if (entry.copy != null) {
            resident.get(entry.pageId);
            return;
        }
        reserve(1);
        Frame frame = pool.obtainPrivateFrame(entry.pageId);
        try {
            if (entry.minimallyLogged) {
                pool.readFromStoreInto(entry.pageId, frame.memory);
            } else {
                spill.read(entry.slot, frame.memory, 1);
            }
        } catch (RuntimeException e) {
            pool.releasePrivate(frame);
            throw e;
        }
        entry.copy = frame;
        entry.changedSinceSpill = false;
        heldFrames++;
        spilledEntries--;
        resident.put(entry.pageId, entry);
    }

    private MemorySegment staging() {
        if (staging == null) {
            stagingArena = Arena.ofShared();
            staging = stagingArena.allocate((long) SPILL_BATCH * PageFormat.PAGE_SIZE, 4096);
        }
        return staging;
    }

    /**
     * The bytes of the spilled copy at {@code position} of {@code spilledInSlotOrder} (see
     * {@link #spilledInSlotOrder()}), for commit to log. Meant to be called for positions in
     * ascending order: each call that misses reads the run of consecutive slots from there in one
     * I/O (up to {@link #SPILL_BATCH} pages), which the next calls then find.
     */
    public synchronized byte[] spilledImage(List<Entry> spilledInSlotOrder, int position) {
        Entry entry = spilledInSlotOrder.get(position);
        if (entry.copy != null) {
            throw new IllegalStateException("page " + entry.pageId + " is not spilled");
        }
        if (stagedFirstSlot < 0 || entry.slot < stagedFirstSlot || entry.slot >= stagedFirstSlot + stagedCount) {
            int run = 1;
            while (run < SPILL_BATCH && position + run < spilledInSlotOrder.size()
                    && spilledInSlotOrder.get(position + run).slot == entry.slot + run) {
                run++;
            }
            MemorySegment buffer = staging();
            stagedFirstSlot = -1;
            spill.read(entry.slot, buffer, run);
            stagedFirstSlot = entry.slot;
            stagedCount = run;
        }
        return staging.asSlice((entry.slot - stagedFirstSlot) * PageFormat.PAGE_SIZE, PageFormat.PAGE_SIZE)
                .toArray(ValueLayout.JAVA_BYTE);
    }

    /**
     * The entries whose copy is in the spill file, in ascending slot order (the order to read them
     * in); minimally logged pages out of memory are in the data file instead and not listed.
     */
    public synchronized List<Entry> spilledInSlotOrder() {
        List<Entry> spilled = new ArrayList<>(spilledEntries);
        for (Entry entry : entries.values()) {
            if (entry.copy == null && !entry.minimallyLogged) {
                spilled.add(entry);
            }
        }
        spilled.sort(Comparator.comparingLong(Entry::slot));
        return spilled;
    }

    /** The LSN to pass to {@link #install} for a copy that ended up identical to its base. */
    public static final long UNCHANGED = -1;
    /** The LSN to pass to {@link #install} for a minimally logged page ({@link #writeMinimallyLoggedPages}). */
    public static final long WRITTEN = -2;

    /**
     * Makes the pages this transaction creates from now on candidates for minimal logging: a
     * created page whose id {@code mayWrite} accepts is written to the data file at its own place
     * when it leaves memory and at commit ({@link #writeMinimallyLoggedPages}), and is never logged.
     * The caller answers for what the data file may hold: the page was free when the transaction
     * began and the log holds no record of it that recovery would replay (docs/design/storage.md,
     * "Minimally logged bulk loads"). A page that was freed and created again within the
     * transaction, or spilled to the spill file before this call, stays logged.
     */
    public synchronized void enableMinimalLogging(java.util.function.LongPredicate mayWrite) {
        this.minimalLogging = java.util.Objects.requireNonNull(mayWrite, "mayWrite");
    }

    /** Whether {@link #enableMinimalLogging} was called. */
    public synchronized boolean minimalLoggingEnabled() {
        return minimalLogging != null;
    }

    /** Minimally logged pages written to the data file so far (a page spilled and written again counts twice). */
    public synchronized long minimallyLoggedWrites() {
        return minimallyLoggedWrites;
    }

    /** Decides once, when the page first leaves memory or commits, whether it is minimally logged. */
    private boolean decideMinimalLogging(Entry entry) {
        if (!entry.minimallyLogged && minimalLogging != null && entry.created && entry.base == null && entry.slot < 0
                && minimalLogging.test(entry.pageId)) {
            entry.minimallyLogged = true;
        }
        return entry.minimallyLogged;
    }

    /**
     * The first half of a minimally logged commit: writes every minimally logged page still in
     * memory (or changed since it was last written) to the data file. The caller then syncs the
     * data file, before the commit record is appended, and passes {@link #WRITTEN} to {@link #install}
     * for every entry that {@link Entry#minimallyLogged()} now says is.
     *
     * @return whether any entry is minimally logged (written now or earlier)
     */
    public synchronized boolean writeMinimallyLoggedPages() {
        boolean any = false;
        for (Entry entry : entries.values()) {
            if (entry.copy != null) {
                if (decideMinimalLogging(entry)) {
                    if (entry.changedSinceSpill) {
                        pool.writeMinimallyLogged(entry.pageId, entry.copy.memory);
                        minimallyLoggedWrites++;
                        entry.changedSinceSpill = false;
                    }
                    any = true;
                }
            } else if (entry.minimallyLogged) {
                any = true;
            }
        }
        return any;
    }

    /**
     * Publishes every copy as the committed version of its page, stamped with its log position. A
     * spilled copy is read back into a frame of its own first; the pool writes installed pages out
     * as it needs their frames (after the log is durable up to them), so they need not all fit.
     *
     * @param lsns the LSN of each entry's log record, in {@link #entries()} order, or
     *             {@link #UNCHANGED} for a copy that is dropped because it equals its base
     */
    public synchronized void install(long[] lsns) {
        int index = 0;
        List<Entry> spilled = new ArrayList<>(spilledEntries);
        List<Long> spilledLsns = new ArrayList<>(spilledEntries);
        for (Entry entry : entries.values()) {
            long lsn = lsns[index++];
            if (lsn == WRITTEN) {
                // Durable in the data file already: the pool keeps the copy clean, or reads the page again.
                if (entry.copy != null) {
                    pool.installWritten(entry.copy);
                } else {
                    pool.forget(entry.pageId);
                }
            } else if (entry.copy == null) {
                if (lsn != UNCHANGED) {
                    spilled.add(entry);
                    spilledLsns.add(lsn);
                }
            } else if (lsn == UNCHANGED) {
                pool.releasePrivate(entry.copy);
            } else {
                pool.install(entry.copy, lsn);
            }
            entry.copy = null;
            if (entry.base != null) {
                entry.base.close();
                entry.base = null;
            }
        }
        installSpilled(spilled, spilledLsns);
        clear();
    }

    /**
     * Reads the spilled copies back in slot order, runs of consecutive slots in one I/O each,
     * straight into frames that are then installed; the pool writes earlier ones out to make room.
     */
    private void installSpilled(List<Entry> spilled, List<Long> lsns) {
        Integer[] order = new Integer[spilled.size()];
        for (int position = 0; position < order.length; position++) {
            order[position] = position;
        }
        Arrays.sort(order, Comparator.comparingLong(position -> spilled.get(position).slot));
        int start = 0;
        while (start < order.length) {
            int run = 1;
            long firstSlot = spilled.get(order[start]).slot;
            while (run < SPILL_BATCH && start + run < order.length
                    && spilled.get(order[start + run]).slot == firstSlot + run) {
                run++;
            }
            Frame[] frames = new Frame[run];
            MemorySegment[] targets = new MemorySegment[run];
            try {
                for (int offset = 0; offset < run; offset++) {
                    frames[offset] = pool.obtainPrivateFrame(spilled.get(order[start + offset]).pageId);
                    targets[offset] = frames[offset].memory;
                }
                spill.read(firstSlot, targets);
            } catch (RuntimeException e) {
                for (Frame frame : frames) {
                    if (frame != null) {
                        pool.releasePrivate(frame);
                    }
                }
                throw e;
            }
            for (int offset = 0; offset < run; offset++) {
                pool.install(frames[offset], lsns.get(order[start + offset]));
            }
            start += run;
        }
    }

    /** Drops every copy: the transaction rolled back. */
    @Override
    public synchronized void close() {
        for (Entry entry : entries.values()) {
            if (entry.copy != null) {
                pool.releasePrivate(entry.copy);
                entry.copy = null;
            }
            if (entry.base != null) {
                entry.base.close();
                entry.base = null;
            }
        }
        clear();
    }

    private void clear() {
        minimalLogging = null;
        entries.clear();
        resident.clear();
        heldFrames = 0;
        spilledEntries = 0;
        stagedFirstSlot = -1;
        if (spill != null) {
            spill.reset();
        }
        if (stagingArena != null) {
            stagingArena.close();
            stagingArena = null;
            staging = null;
        }
    }
}

package dev.columba.storage.btree;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.alloc.Allocator;
import dev.columba.storage.buffer.Access;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.buffer.PageRef;
import dev.columba.storage.buffer.WriteSet;
import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.page.PageType;
import dev.columba.storage.page.SlottedPage;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A B+tree of memcomparable byte keys and byte values on 8 KB pages: the clustered index of a
 * rowstore table (value = the row), a secondary index (key = index key + clustering key), the
 * catalog.
 *
 * <p>Leaves and internal pages are linked to their siblings at every level, so a scan can walk
 * the leaves in key order and read-ahead can walk the level above them to learn which leaves come
 * next. The root never moves: when it splits, its content moves to two new pages and it becomes
 * their parent, so the catalog never has to learn a new root.
 *
 * <p>Splits are half by bytes, except at the right edge of the tree, where a page that receives an
 * insert past its last key keeps everything and the new page starts with the new key: ascending
 * loads (identity keys) then fill pages completely, as SQL Server's do. Separators are the shortest
 * prefix of the right page's first key that still sorts above the left page's last key.
 *
 * <p>Deletes free a page when it becomes empty and collapse a root left with a single child;
 * pages are not merged when merely sparse (PostgreSQL's choice): a rebuild restores density.
 *
 * <p>Writes go through a {@link WriteSet}, reads through any {@link PageReader}. Instances are
 * immutable descriptors (object, root, allocation map) and thread-safe.
 */
public final class BTree {
    private static final int MAX_DEPTH = 32;

    private final int objectId;
    private final long rootPage;
    private final long firstOamPage;

    public BTree(int objectId, long rootPage, long firstOamPage) {
        this.objectId = objectId;
        this.rootPage = rootPage;
        this.firstOamPage = firstOamPage;
    }

    /** Creates an empty tree: its allocation map and a root leaf. */
    public static BTree create(WriteSet writes, Allocator allocator, int objectId, IoCounters counters) {
        return create(writes, allocator, objectId, dev.columba.storage.file.FileManifest.PRIMARY_FILEGROUP, counters);
    }

    /** Creates an empty tree whose pages come from filegroup {@code filegroupId}'s files. */
    public static BTree create(WriteSet writes, Allocator allocator, int objectId, int filegroupId, IoCounters counters) {
        long oamPage = allocator.createObject(writes, objectId, filegroupId, counters);
        long root = allocator.allocatePage(writes, objectId, oamPage, counters);
        try (PageRef ref = writes.create(root)) {
            Page.format(ref.page(), root, PageType.BTREE_LEAF, objectId, 0);
        }
        return new BTree(objectId, root, oamPage);
    }

    public int objectId() {
        return objectId;
    }

    public long rootPage() {
        return rootPage;
    }

    public long firstOamPage() {
        return firstOamPage;
    }

    /** Largest key in bytes. */
    public static int maxKeyLength() {
        return Node.MAX_KEY_LENGTH;
    }

    /** Largest key plus value in bytes that fits in one leaf cell; larger rows must move values out of row. */
    public static int maxEntryLength() {
        return Node.MAX_LEAF_CELL - Node.LEAF_CELL_OVERHEAD;
    }

    // ---- reads --------------------------------------------------------------------------------

    /** A copy of the value stored under {@code key}, or null. */
    public byte[] get(PageReader reader, byte[] key, IoCounters counters) {
        Path path = descend(reader, key, counters);
        try (PageRef ref = path.takeLeaf(reader, Access.RANDOM, counters)) {
            MemorySegment page = checkPage(ref.page(), path.leaf);
            int slot = Node.searchLeaf(page, MemorySegment.ofArray(key));
            return slot >= 0 ? Node.value(page, slot) : null;
        }
    }

    /**
     * Opens a cursor over the keys in {@code [low, high]} in key order; a null bound is open, and
     * the inclusive flags decide whether a bound itself is included.
     */
    public Cursor scan(PageReader reader, ScanRange range, ReadAheadOptions readAhead, IoCounters counters) {
        return new Cursor(this, reader, range, readAhead, counters);
    }

    /** Opens an unordered scan of every entry, visiting pages in allocation order. */
    public AllocationOrderCursor scanAllocationOrder(PageReader reader, ReadAheadOptions readAhead, IoCounters counters) {
        return scanAllocationOrder(reader, 0, Long.MAX_VALUE, readAhead, counters);
    }

    /** An allocation-order scan of the leaves whose page ids lie in {@code [firstPage, endPage)}. */
    public AllocationOrderCursor scanAllocationOrder(PageReader reader, long firstPage, long endPage, ReadAheadOptions readAhead,
                                                     IoCounters counters) {
        return new AllocationOrderCursor(this, reader, firstPage, endPage, readAhead, counters);
    }

    /**
     * Descends to the leaf that would hold {@code key} (the first leaf for null) and returns the
     * path of internal pages and child indexes taken. The leaf itself is not read unless it is the
     * root (then the path holds it pinned, see {@link Path#takeLeaf}), so every page of the path
     * is requested exactly once.
     */
    Path descend(PageReader reader, byte[] key, IoCounters counters) {
        MemorySegment keySegment = key == null ? null : MemorySegment.ofArray(key);
        Path path = new Path();
        long pageId = rootPage;
        for (int depth = 0; depth < MAX_DEPTH; depth++) {
            PageRef ref = reader.read(pageId, Access.RANDOM, counters);
            MemorySegment page;
            try {
                page = checkPage(ref.page(), pageId);
            } catch (RuntimeException e) {
                ref.close();
                throw e;
            }
            if (Node.isLeaf(page)) {
                path.leaf = pageId;
                path.leafRef = ref;
                return path;
            }
            try (ref) {
                int childIndex = keySegment == null ? -1 : Node.searchInternal(page, keySegment);
                path.push(pageId, childIndex);
                pageId = Node.childAt(page, childIndex);
                if (Page.level(page) == 1) {
                    path.leaf = pageId;
                    if (keySegment != null) {
                        Node.boundLeaf(page, childIndex, keySegment, path.bounds);
                    }
                    return path;
                }
            }
        }
        throw tooDeep();
    }

    /** The leaf page that holds, or would hold, {@code key}. */
    public long leafFor(PageReader reader, byte[] key, IoCounters counters) {
        Path path = descend(reader, key, counters);
        path.releaseLeaf();
        return path.leaf;
    }

    /**
     * A copy of the greatest key, or null when the tree is empty: one descent along the rightmost
     * children (the mirror of a scan's first entry), for statistics such as the upper bound of a
     * clustered key.
     */
    public byte[] lastKey(PageReader reader, IoCounters counters) {
        long pageId = rootPage;
        for (int depth = 0; depth < MAX_DEPTH; depth++) {
            try (PageRef ref = reader.read(pageId, Access.RANDOM, counters)) {
                MemorySegment page = checkPage(ref.page(), pageId);
                int slots = Page.slotCount(page);
                if (Node.isLeaf(page)) {
                    return slots == 0 ? null : Node.key(page, slots - 1);
                }
                pageId = Node.childAt(page, slots - 1);
            }
        }
        throw tooDeep();
    }

    /** Levels from the root to the leaves: 1 for a tree that is a single leaf. */
    public int height(PageReader reader, IoCounters counters) {
        Path path = descend(reader, null, counters);
        path.releaseLeaf();
        return path.depth + 1;
    }

    // ---- writes -------------------------------------------------------------------------------

    /**
     * Inserts a new key.
     *
     * @return false, changing nothing, if the key is already present
     */
    public boolean insert(WriteSet writes, Allocator allocator, byte[] key, byte[] value, IoCounters counters) {
        return store(writes, allocator, key, value, false, counters);
    }

    /**
     * Inserts the key or replaces its value.
     *
     * @return true if the key was new
     */
    public boolean put(WriteSet writes, Allocator allocator, byte[] key, byte[] value, IoCounters counters) {
        return store(writes, allocator, key, value, true, counters);
    }

    /**
     * An inserter for a run of new keys into this tree by one statement of one transaction, for
     * keys that tend to arrive in order (a batch or a load into a clustered key): see
     * {@link Inserter}.
     */
    public Inserter inserter() {
        return new Inserter();
    }

    /**
     * Inserts new keys, remembering the leaf the last one went to. A key that falls inside that
     * leaf's key range, as far as the leaf itself can tell (between its first and last key, past
     * its last when it is the rightmost leaf, before its first when it is the leftmost), goes
     * straight into it without a descent from the root, when it fits; so does a key between the
     * separators the descent that found the leaf passed on either side of it (its fences, known
     * until the leaf splits). Anything else (another leaf, a full leaf, an empty one) takes
     * {@link #insert}'s path and the leaf that path ended in becomes the remembered one. Keys in ascending order therefore cost a comparison with the
     * last key of the rightmost leaf and an append, and a descent only when the leaf is full, where
     * the append-style split leaves the full page as it is and starts a new one.
     *
     * <p>Valid while the only changes to the tree are this inserter's, within the write set it is
     * given (the remembered leaf must not be freed under it); not thread-safe.
     */
    public final class Inserter {
        private long leaf = PageFormat.NO_PAGE;
        /**
         * The separators that bound the remembered leaf's range, from the descent that found it
         * (low inclusive, high exclusive), or null where not known (the leaf then speaks for itself:
         * its own first and last key, and whether it is the leftmost or rightmost leaf).
         */
        private byte[] lowFence;
        private byte[] highFence;

        private Inserter() {
        }

        /**
         * Inserts a new key, as {@link BTree#insert}.
         *
         * @return false, changing nothing, if the key is already present
         */
        public boolean insert(WriteSet writes, Allocator allocator, byte[] key, byte[] value, IoCounters counters) {
            checkEntry(key, value);
            if (leaf != PageFormat.NO_PAGE) {
                int outcome = insertIntoRemembered(writes, key, value, counters);
                if (outcome != MISSED) {
                    return outcome == INSERTED;
                }
            }
            Path path = descend(writes, key, counters);
            int slot;
            try (PageRef ref = path.takeLeaf(writes, Access.RANDOM, counters)) {
                slot = Node.searchLeaf(ref.page(), MemorySegment.ofArray(key));
            }
            if (slot >= 0) {
                remember(writes, path, path.leaf, counters);
                return false;
            }
            remember(writes, path, insertIntoLeaf(writes, allocator, path, -slot - 1, key, value, counters), counters);
            return true;
        }

        /**
         * Remembers {@code landed}; when it is the path's leaf (no split happened), also the
         * separators around it in the path's internal pages, the nearest on each side.
         */
        private void remember(WriteSet writes, Path path, long landed, IoCounters counters) {
            leaf = landed;
            lowFence = null;
            highFence = null;
            if (landed != path.leaf) {
                return;
            }
            boolean lowFound = false;
            boolean highFound = false;
            for (int depth = path.depth - 1; depth >= 0 && !(lowFound && highFound); depth--) {
                try (PageRef ref = writes.read(path.pages[depth], Access.RANDOM, counters)) {
                    MemorySegment page = ref.page();
                    int childIndex = path.childIndexes[depth];
                    if (!lowFound && childIndex >= 0) {
                        lowFence = Node.key(page, childIndex);
                        lowFound = true;
                    }
                    if (!highFound && childIndex + 1 < Page.slotCount(page)) {
                        highFence = Node.key(page, childIndex + 1);
                        highFound = true;
                    }
                }
            }
        }

        private static final int INSERTED = 0;
        private static final int DUPLICATE = 1;
        private static final int MISSED = 2;

        private int insertIntoRemembered(WriteSet writes, byte[] key, byte[] value, IoCounters counters) {
            try (PageRef ref = writes.modify(leaf, counters)) {
                MemorySegment page = ref.page();
                int count = Page.slotCount(page);
                if (Page.type(page) != PageType.BTREE_LEAF || Page.objectId(page) != objectId || count == 0) {
                    return MISSED;
                }
                MemorySegment keySegment = MemorySegment.ofArray(key);
                int slot;
                int toLast = Node.compareSlot(page, count - 1, keySegment);
                if (toLast < 0) {
                    if (Page.next(page) != PageFormat.NO_PAGE
                            && (highFence == null || Arrays.compareUnsigned(key, highFence) >= 0)) {
                        return MISSED;
                    }
                    slot = count;
                } else if (toLast == 0) {
                    return DUPLICATE;
                } else {
                    int toFirst = count == 1 ? toLast : Node.compareSlot(page, 0, keySegment);
                    if (toFirst == 0) {
                        return DUPLICATE;
                    }
                    if (toFirst > 0) {
                        if (Page.previous(page) != PageFormat.NO_PAGE
                                && (lowFence == null || Arrays.compareUnsigned(key, lowFence) < 0)) {
                            return MISSED;
                        }
                        slot = 0;
                    } else {
                        int found = Node.searchLeaf(page, keySegment);
                        if (found >= 0) {
                            return DUPLICATE;
                        }
                        slot = -found - 1;
                    }
                }
                int size = Node.leafCellSize(key, value);
                if (!SlottedPage.fits(page, size)) {
                    return MISSED;
                }
                int cell = SlottedPage.insert(page, slot, size, Node.LEAF_LENGTH);
                Node.writeLeafCell(page, cell, key, value);
                return INSERTED;
            }
        }
    }

    /**
     * A bottom-up build of this tree, which must be empty, from entries given in ascending key
     * order: see {@link Builder}.
     *
     * @param fillPercent how full each leaf is filled, 10 to 100 (internal pages are filled
     *                    completely)
     */
    public Builder builder(WriteSet writes, int fillPercent, IoCounters counters) {
        if (fillPercent < 10 || fillPercent > 100) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "fill factor " + fillPercent
                    + " is outside 10 to 100");
        }
        if (!rootIsEmptyLeaf(writes, counters)) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a bottom-up build needs an empty tree; object "
                    + objectId + " has entries");
        }
        return new Builder(fillPercent);
    }

    /**
     * Whether the root is a leaf without entries, which a {@link #builder} needs. A tree emptied by
     * deletes may keep inner pages over empty leaves: it holds no entries, yet is not built bottom up.
     */
    public boolean rootIsEmptyLeaf(WriteSet writes, IoCounters counters) {
        try (PageRef ref = writes.read(rootPage, Access.RANDOM, counters)) {
            MemorySegment root = checkPage(ref.page(), rootPage);
            return Node.isLeaf(root) && Page.slotCount(root) == 0;
        }
    }

    /**
     * Builds the tree from the bottom up: entries in strictly ascending key order are appended to
     * the current leaf until it holds {@code fillPercent} of a page, then a new leaf is allocated
     * and linked to it, and the new leaf's separator (the shortest prefix of its first key above
     * the previous leaf's last, as a split computes it) is kept for the level above. {@link
     * #finish} builds each internal level from the separators of the one below, filling pages
     * completely, until a level fits in one page, which is written into the root (the root never
     * moves). The first leaf is the root itself until a second one is needed; then its entries move
     * to a new page. No page is read or searched: each entry costs a copy into the current leaf.
     *
     * <p>Every page it writes is new to the transaction, so the commit logs it as a full image, as
     * for any page a transaction creates; nothing about logging or recovery differs from inserts.
     * Until {@link #finish} the tree is incomplete (only the leaves exist): nothing else may read
     * or change it in between. Not thread-safe.
     */
    public final class Builder implements AutoCloseable {
        private final int leafLimit;
        /** The leaf being filled. */
        private long leaf = rootPage;
        /**
         * The writable copy of {@link #leaf}, held from its first entry until the next leaf starts,
         * the build restarts or finishes, or {@link #close}: one write-set lookup per leaf instead of
         * one per entry (a hash lookup, an access-order move and a reference each, 4–7% of a load's
         * thread). While held the write set cannot spill the leaf.
         */
        private PageRef heldLeaf;
        private byte[] lastKey;
        /** The level above the leaves: the first leaf, then (separator, leaf) per later leaf. */
        private long firstLeaf = rootPage;
        private final List<byte[]> separators = new ArrayList<>();
        private final List<Long> children = new ArrayList<>();
        private long entries;
        /** Pages of an earlier build, emptied by {@link #restart}, used before new ones are allocated. */
        private final java.util.ArrayDeque<Long> spare = new java.util.ArrayDeque<>();

        private Builder(int fillPercent) {
            this.leafLimit = PageFormat.USABLE_SIZE * fillPercent / 100;
        }

        /** The last key added, or null. */
        public byte[] lastKey() {
            return lastKey;
        }

        public long entries() {
            return entries;
        }

        /**
         * Appends an entry whose key sorts above every key added before.
         *
         * @return false, adding nothing, if the key does not sort above the last one added (the
         *         caller decides: a duplicate, or input that is not in order)
         */
        public boolean add(WriteSet writes, Allocator allocator, byte[] key, byte[] value, IoCounters counters) {
            return add(writes, allocator, key, value, value.length, counters);
        }

        /**
         * As {@link #add(WriteSet, Allocator, byte[], byte[], IoCounters)} with the value
         * {@code value[0, valueLength)}, which is copied (the caller may reuse the array); the key is
         * kept as {@link #lastKey}.
         */
        public boolean add(WriteSet writes, Allocator allocator, byte[] key, byte[] value, int valueLength,
                           IoCounters counters) {
            checkEntry(key, valueLength);
            if (lastKey != null && Arrays.compareUnsigned(key, lastKey) <= 0) {
                return false;
            }
            int size = Node.leafCellSize(key, valueLength);
            MemorySegment page = leafPage(writes, counters);
            int used = Node.usedBytes(page);
            if (lastKey == null || (used + size + SlottedPage.SLOT_SIZE <= leafLimit && SlottedPage.fits(page, size))) {
                int cell = SlottedPage.append(page, size, Node.LEAF_LENGTH);
                Node.writeLeafCell(page, cell, key, value, valueLength);
                lastKey = key;
                entries++;
                return true;
            }
            startLeaf(writes, allocator, key, counters);
            page = leafPage(writes, counters);
            int cell = SlottedPage.append(page, size, Node.LEAF_LENGTH);
            Node.writeLeafCell(page, cell, key, value, valueLength);
            lastKey = key;
            entries++;
            return true;
        }

        /** The current leaf's writable copy, looked up once per leaf. */
        private MemorySegment leafPage(WriteSet writes, IoCounters counters) {
            if (heldLeaf == null) {
                heldLeaf = writes.modify(leaf, counters);
            }
            return heldLeaf.page();
        }

        /**
         * Lets go of the leaf being filled, so that the write set may spill it. The build may go on
         * afterwards (the next entry looks the leaf up again); call it when a load ends or fails.
         */
        @Override
        public void close() {
            if (heldLeaf != null) {
                PageRef held = heldLeaf;
                heldLeaf = null;
                held.close();
            }
        }

        /** Receives the entries {@link #restart} reads back. */
        public interface EntrySink {
            void accept(byte[] key, byte[] value);
        }

        /**
         * Hands every entry added so far to {@code sink}, in key order, and empties the build: the
         * root is an empty leaf again and the next entry may have any key. The leaves written so far
         * are reused, in the same order, by the leaves and internal pages that follow before any
         * page is allocated; {@link #finish} frees those left over. For a load whose input turns
         * out not to be in order: what was built goes back into the sort with the rest.
         */
        public void restart(WriteSet writes, IoCounters counters, EntrySink sink) {
            close();
            List<Long> leaves = new ArrayList<>();
            leaves.add(firstLeaf);
            leaves.addAll(children);
            for (long page : leaves) {
                try (PageRef ref = writes.read(page, Access.SCAN, counters)) {
                    int count = Page.slotCount(ref.page());
                    for (int slot = 0; slot < count; slot++) {
                        sink.accept(Node.key(ref.page(), slot), Node.value(ref.page(), slot));
                    }
                }
                if (page != rootPage) {
                    spare.add(page);
                }
            }
            try (PageRef ref = writes.modify(rootPage, counters)) {
                Page.format(ref.page(), rootPage, PageType.BTREE_LEAF, objectId, 0);
                Page.setPrevious(ref.page(), PageFormat.NO_PAGE);
                Page.setNext(ref.page(), PageFormat.NO_PAGE);
                Page.setSpecial(ref.page(), PageFormat.NO_PAGE);
            }
            leaf = rootPage;
            firstLeaf = rootPage;
            separators.clear();
            children.clear();
            lastKey = null;
            entries = 0;
        }

        /** A page for the build: a spare one of an earlier build if any is left, else a new allocation. */
        private long nextPage(WriteSet writes, Allocator allocator, IoCounters counters) {
            Long reused = spare.poll();
            return reused != null ? reused : allocator.allocatePage(writes, objectId, firstOamPage, counters);
        }

        /** Allocates the next leaf, linked after the current one, with {@code firstKey}'s separator. */
        private void startLeaf(WriteSet writes, Allocator allocator, byte[] firstKey, IoCounters counters) {
            close();
            if (leaf == rootPage) {
                // The root was the first leaf: its entries move to a page of their own.
                long moved = nextPage(writes, allocator, counters);
                try (PageRef rootRef = writes.read(rootPage, Access.RANDOM, counters);
                     PageRef movedRef = writable(writes, moved, counters)) {
                    MemorySegment.copy(rootRef.page(), 0, movedRef.page(), 0, PageFormat.PAGE_SIZE);
                    movedRef.page().set(Node.LONG, PageFormat.PAGE_ID_OFFSET, moved);
                }
                leaf = moved;
                firstLeaf = moved;
            }
            long next = nextPage(writes, allocator, counters);
            try (PageRef ref = writable(writes, next, counters)) {
                Page.format(ref.page(), next, PageType.BTREE_LEAF, objectId, 0);
                Page.setPrevious(ref.page(), leaf);
                Page.setNext(ref.page(), PageFormat.NO_PAGE);
                Page.setSpecial(ref.page(), PageFormat.NO_PAGE);
            }
            try (PageRef ref = writes.modify(leaf, counters)) {
                Page.setNext(ref.page(), next);
            }
            separators.add(shortestSeparator(lastKey, firstKey));
            children.add(next);
            leaf = next;
        }

        /**
         * Builds the internal levels and writes the top one into the root. The tree is complete
         * and may be used (inserted into, with {@link BTree#inserter()} or otherwise) afterwards.
         */
        public void finish(WriteSet writes, Allocator allocator, IoCounters counters) {
            close();
            buildInternalLevels(writes, allocator, counters);
            while (!spare.isEmpty()) {
                allocator.freePage(writes, firstOamPage, spare.poll(), counters);
            }
        }

        private void buildInternalLevels(WriteSet writes, Allocator allocator, IoCounters counters) {
            long leftmost = firstLeaf;
            List<byte[]> keys = new ArrayList<>(separators);
            List<Long> pages = new ArrayList<>(children);
            int level = 1;
            while (!keys.isEmpty()) {
                if (level >= MAX_DEPTH) {
                    throw tooDeep();
                }
                if (fitsOnePage(keys)) {
                    writeInternal(writes, rootPage, level, PageFormat.NO_PAGE, leftmost, keys, pages, 0, keys.size(),
                            counters);
                    return;
                }
                List<byte[]> upperKeys = new ArrayList<>();
                List<Long> upperPages = new ArrayList<>();
                long upperLeftmost = PageFormat.NO_PAGE;
                long previous = PageFormat.NO_PAGE;
                int start = 0;
                long pageLeftmost = leftmost;
                while (start <= keys.size()) {
                    int end = start;
                    int used = 0;
                    while (end < keys.size()) {
                        int size = Node.internalCellSize(keys.get(end)) + SlottedPage.SLOT_SIZE;
                        if (used + size > PageFormat.USABLE_SIZE) {
                            break;
                        }
                        used += size;
                        end++;
                    }
                    long pageId = nextPage(writes, allocator, counters);
                    writeInternal(writes, pageId, level, previous, pageLeftmost, keys, pages, start, end, counters);
                    if (previous != PageFormat.NO_PAGE) {
                        try (PageRef ref = writes.modify(previous, counters)) {
                            Page.setNext(ref.page(), pageId);
                        }
                    }
                    if (upperLeftmost == PageFormat.NO_PAGE) {
                        upperLeftmost = pageId;
                    }
                    previous = pageId;
                    if (end == keys.size()) {
                        break;
                    }
                    // The key at the page boundary moves up; its child leads the next page.
                    upperKeys.add(keys.get(end));
                    upperPages.add(pageId);
                    pageLeftmost = pages.get(end);
                    start = end + 1;
                }
                // The upper level's children: the first page is its leftmost, the others follow
                // the keys that moved up.
                List<Long> shifted = new ArrayList<>(upperPages.size());
                for (int index = 0; index < upperPages.size(); index++) {
                    shifted.add(index + 1 < upperPages.size() ? upperPages.get(index + 1) : previous);
                }
                leftmost = upperLeftmost;
                keys = upperKeys;
                pages = shifted;
                level++;
            }
        }

        /** A page the build is about to overwrite whole: new to the transaction, or one it already changed (the root, a spare). */
        private static PageRef writable(WriteSet writes, long pageId, IoCounters counters) {
            return writes.isModified(pageId) ? writes.modify(pageId, counters) : writes.create(pageId);
        }

        private static boolean fitsOnePage(List<byte[]> keys) {
            long used = 0;
            for (byte[] key : keys) {
                used += Node.internalCellSize(key) + SlottedPage.SLOT_SIZE;
                if (used > PageFormat.USABLE_SIZE) {
                    return false;
                }
            }
            return true;
        }

        private void writeInternal(WriteSet writes, long pageId, int level, long previous, long leftmost,
                                   List<byte[]> keys, List<Long> pages, int start, int end, IoCounters counters) {
            try (PageRef ref = writable(writes, pageId, counters)) {
                MemorySegment page = ref.page();
                Page.format(page, pageId, PageType.BTREE_INTERNAL, objectId, level);
                Page.setPrevious(page, previous);
                Page.setNext(page, PageFormat.NO_PAGE);
                Page.setSpecial(page, leftmost);
                for (int index = start; index < end; index++) {
                    byte[] key = keys.get(index);
                    int offset = SlottedPage.append(page, Node.internalCellSize(key), Node.INTERNAL_LENGTH);
                    Node.writeInternalCell(page, offset, key, pages.get(index));
                }
            }
        }
    }

    private boolean store(WriteSet writes, Allocator allocator, byte[] key, byte[] value, boolean replace,
                          IoCounters counters) {
        checkEntry(key, value);
        Path path = descend(writes, key, counters);
        MemorySegment keySegment = MemorySegment.ofArray(key);
        int insertionPoint;
        boolean existed;
        try (PageRef ref = path.takeLeaf(writes, Access.RANDOM, counters)) {
            int slot = Node.searchLeaf(ref.page(), keySegment);
            existed = slot >= 0;
            if (existed && !replace) {
                return false;
            }
            insertionPoint = existed ? slot : -slot - 1;
        }
        if (existed) {
            try (PageRef ref = writes.modify(path.leaf, counters)) {
                MemorySegment page = ref.page();
                int cell = SlottedPage.cellOffset(page, insertionPoint);
                if (Node.valueLength(page, cell) == value.length) {
                    MemorySegment.copy(value, 0, page, java.lang.foreign.ValueLayout.JAVA_BYTE,
                            Node.valueOffset(page, cell), value.length);
                    return false;
                }
                SlottedPage.remove(page, insertionPoint, Node.leafCellLength(page, cell));
            }
        }
        insertIntoLeaf(writes, allocator, path, insertionPoint, key, value, counters);
        return !existed;
    }

    /**
     * Puts the new cell into the path's leaf at {@code slot}, splitting it when full.
     *
     * @return the leaf that now holds the key when that is known without another descent (the
     *         path's leaf, or the new right page of an append at the right edge), else NO_PAGE
     */
    private long insertIntoLeaf(WriteSet writes, Allocator allocator, Path path, int slot, byte[] key, byte[] value,
                                IoCounters counters) {
        int size = Node.leafCellSize(key, value);
        List<byte[][]> cells;
        boolean rightEdgeAppend;
        byte[] lastKey = null;
        try (PageRef ref = writes.modify(path.leaf, counters)) {
            MemorySegment page = ref.page();
            if (SlottedPage.fits(page, size)) {
                int cell = SlottedPage.insert(page, slot, size, Node.LEAF_LENGTH);
                Node.writeLeafCell(page, cell, key, value);
                return path.leaf;
            }
            int count = Page.slotCount(page);
            rightEdgeAppend = Page.next(page) == PageFormat.NO_PAGE && slot == count;
            if (rightEdgeAppend && path.leaf != rootPage) {
                lastKey = Node.key(page, count - 1);
                cells = null;
            } else {
                cells = leafCells(page);
            }
        }
        if (lastKey != null) {
            return appendRightLeaf(writes, allocator, path, lastKey, key, value, counters);
        }
        cells.add(slot, new byte[][] {key, value});
        int split = rightEdgeAppend ? cells.size() - 1 : balancedSplit(cells, true);
        splitPage(writes, allocator, path, path.depth, path.leaf, 0, PageFormat.NO_PAGE, cells, split, counters);
        return PageFormat.NO_PAGE;
    }

    /**
     * The split of a full rightmost leaf (not the root) by a key past its last: the leaf stays as
     * it is, full, and a new right sibling starts with the key (the same pages {@link #splitPage}
     * makes for an append at the right edge, without rewriting the left page).
     *
     * @return the new leaf
     */
    private long appendRightLeaf(WriteSet writes, Allocator allocator, Path path, byte[] lastKey, byte[] key,
                                 byte[] value, IoCounters counters) {
        long rightId = allocator.allocatePage(writes, objectId, firstOamPage, counters);
        List<byte[][]> right = new ArrayList<>(1);
        right.add(new byte[][] {key, value});
        writeNode(writes, rightId, PageType.BTREE_LEAF, 0, path.leaf, PageFormat.NO_PAGE, PageFormat.NO_PAGE, right,
                counters);
        try (PageRef ref = writes.modify(path.leaf, counters)) {
            Page.setNext(ref.page(), rightId);
        }
        insertIntoParent(writes, allocator, path, path.depth - 1, shortestSeparator(lastKey, key), rightId, counters);
        return rightId;
    }

    /**
     * Replaces the page {@code pageId} (at {@code level}) by itself holding {@code cells[0, split)}
     * and a new right sibling holding the rest, then posts the separator to the parent. For
     * internal pages, {@code cells[split]}'s key moves up and its child becomes the new page's
     * leftmost child. {@code pathIndex} is the page's own position in the path (the leaf's is
     * {@code path.depth}); its parent is at {@code pathIndex - 1}.
     */
    private void splitPage(WriteSet writes, Allocator allocator, Path path, int pathIndex, long pageId, int level,
                           long leftmostChild, List<byte[][]> cells, int split, IoCounters counters) {
        boolean leaf = level == 0;
        byte[] separator;
        List<byte[][]> left = cells.subList(0, split);
        List<byte[][]> right;
        long rightLeftmost;
        if (leaf) {
            right = cells.subList(split, cells.size());
            separator = shortestSeparator(left.get(left.size() - 1)[0], right.get(0)[0]);
            rightLeftmost = PageFormat.NO_PAGE;
        } else {
            separator = cells.get(split)[0];
            rightLeftmost = toLong(cells.get(split)[1]);
            right = cells.subList(split + 1, cells.size());
        }
        PageType type = leaf ? PageType.BTREE_LEAF : PageType.BTREE_INTERNAL;
        if (pageId == rootPage) {
            long leftId = allocator.allocatePage(writes, objectId, firstOamPage, counters);
            long rightId = allocator.allocatePage(writes, objectId, firstOamPage, counters);
            writeNode(writes, leftId, type, level, PageFormat.NO_PAGE, rightId, leftmostChild, left, counters);
            writeNode(writes, rightId, type, level, leftId, PageFormat.NO_PAGE, rightLeftmost, right, counters);
            List<byte[][]> rootCells = new ArrayList<>();
            rootCells.add(new byte[][] {separator, toBytes(rightId)});
            writeNode(writes, rootPage, PageType.BTREE_INTERNAL, level + 1, PageFormat.NO_PAGE, PageFormat.NO_PAGE,
                    leftId, rootCells, counters);
            return;
        }
        long rightId = allocator.allocatePage(writes, objectId, firstOamPage, counters);
        long oldNext;
        long previous;
        try (PageRef ref = writes.read(pageId, Access.RANDOM, counters)) {
            oldNext = Page.next(ref.page());
            previous = Page.previous(ref.page());
        }
        writeNode(writes, pageId, type, level, previous, rightId, leftmostChild, left, counters);
        writeNode(writes, rightId, type, level, pageId, oldNext, rightLeftmost, right, counters);
        if (oldNext != PageFormat.NO_PAGE) {
            try (PageRef ref = writes.modify(oldNext, counters)) {
                Page.setPrevious(ref.page(), rightId);
            }
        }
        insertIntoParent(writes, allocator, path, pathIndex - 1, separator, rightId, counters);
    }

    /** Posts {@code separator -> child} into the internal page at {@code depth} of the path. */
    private void insertIntoParent(WriteSet writes, Allocator allocator, Path path, int depth, byte[] separator,
                                  long child, IoCounters counters) {
        long parentId = path.pages[depth];
        int slot = path.childIndexes[depth] + 1;
        int size = Node.internalCellSize(separator);
        List<byte[][]> cells;
        int level;
        long leftmost;
        boolean rightEdgeAppend;
        try (PageRef ref = writes.modify(parentId, counters)) {
            MemorySegment page = ref.page();
            if (SlottedPage.fits(page, size)) {
                int cell = SlottedPage.insert(page, slot, size, Node.INTERNAL_LENGTH);
                Node.writeInternalCell(page, cell, separator, child);
                return;
            }
            cells = internalCells(page);
            level = Page.level(page);
            leftmost = Node.leftmostChild(page);
            rightEdgeAppend = Page.next(page) == PageFormat.NO_PAGE && slot == cells.size();
        }
        cells.add(slot, new byte[][] {separator, toBytes(child)});
        int split = rightEdgeAppend ? cells.size() - 1 : balancedSplit(cells, false);
        splitPage(writes, allocator, path, depth, parentId, level, leftmost, cells, split, counters);
    }

    /**
     * Removes {@code key}.
     *
     * @return false if it was not present
     */
    public boolean delete(WriteSet writes, Allocator allocator, byte[] key, IoCounters counters) {
        Path path = descend(writes, key, counters);
        MemorySegment keySegment = MemorySegment.ofArray(key);
        boolean empty;
        try (PageRef ref = path.takeLeaf(writes, Access.RANDOM, counters)) {
            if (Node.searchLeaf(ref.page(), keySegment) < 0) {
                return false;
            }
        }
        try (PageRef ref = writes.modify(path.leaf, counters)) {
            MemorySegment page = ref.page();
            int slot = Node.searchLeaf(page, keySegment);
            SlottedPage.remove(page, slot, Node.leafCellLength(page, SlottedPage.cellOffset(page, slot)));
            empty = Page.slotCount(page) == 0;
        }
        if (empty && path.leaf != rootPage) {
            removeEmptyPage(writes, allocator, path, path.depth - 1, path.leaf, counters);
        }
        return true;
    }

    /** Unlinks and frees the empty page {@code pageId} whose parent is at {@code parentDepth}. */
    private void removeEmptyPage(WriteSet writes, Allocator allocator, Path path, int parentDepth, long pageId,
                                 IoCounters counters) {
        long previous;
        long next;
        try (PageRef ref = writes.read(pageId, Access.RANDOM, counters)) {
            previous = Page.previous(ref.page());
            next = Page.next(ref.page());
        }
        if (previous != PageFormat.NO_PAGE) {
            try (PageRef ref = writes.modify(previous, counters)) {
                Page.setNext(ref.page(), next);
            }
        }
        if (next != PageFormat.NO_PAGE) {
            try (PageRef ref = writes.modify(next, counters)) {
                Page.setPrevious(ref.page(), previous);
            }
        }
        allocator.freePage(writes, firstOamPage, pageId, counters);

        long parentId = path.pages[parentDepth];
        int childIndex = path.childIndexes[parentDepth];
        boolean parentEmpty;
        try (PageRef ref = writes.modify(parentId, counters)) {
            MemorySegment page = ref.page();
            int count = Page.slotCount(page);
            parentEmpty = count == 0;
            if (childIndex >= 0) {
                int cell = SlottedPage.cellOffset(page, childIndex);
                SlottedPage.remove(page, childIndex, Node.internalCellLength(page, cell));
            } else if (count > 0) {
                // The leftmost child went: the first separator's child takes its place.
                int cell = SlottedPage.cellOffset(page, 0);
                Page.setSpecial(page, Node.child(page, cell));
                SlottedPage.remove(page, 0, Node.internalCellLength(page, cell));
            }
        }
        if (parentEmpty) {
            if (parentId == rootPage) {
                try (PageRef ref = writes.modify(rootPage, counters)) {
                    Page.format(ref.page(), rootPage, PageType.BTREE_LEAF, objectId, 0);
                }
            } else {
                removeEmptyPage(writes, allocator, path, parentDepth - 1, parentId, counters);
            }
            return;
        }
        if (parentId == rootPage) {
            collapseRoot(writes, allocator, counters);
        }
    }

    /** While the root is an internal page with a single child, pulls the child up into the root. */
    private void collapseRoot(WriteSet writes, Allocator allocator, IoCounters counters) {
        while (true) {
            long child;
            try (PageRef ref = writes.read(rootPage, Access.RANDOM, counters)) {
                MemorySegment root = ref.page();
                if (Node.isLeaf(root) || Page.slotCount(root) > 0) {
                    return;
                }
                child = Node.leftmostChild(root);
            }
            try (PageRef childRef = writes.read(child, Access.RANDOM, counters);
                 PageRef rootRef = writes.modify(rootPage, counters)) {
                MemorySegment.copy(childRef.page(), 0, rootRef.page(), 0, PageFormat.PAGE_SIZE);
                MemorySegment root = rootRef.page();
                root.set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN),
                        PageFormat.PAGE_ID_OFFSET, rootPage);
                Page.setPrevious(root, PageFormat.NO_PAGE);
                Page.setNext(root, PageFormat.NO_PAGE);
            }
            allocator.freePage(writes, firstOamPage, child, counters);
        }
    }

    // ---- node content -------------------------------------------------------------------------

    private static List<byte[][]> leafCells(MemorySegment page) {
        int count = Page.slotCount(page);
        List<byte[][]> cells = new ArrayList<>(count + 1);
        for (int slot = 0; slot < count; slot++) {
            cells.add(new byte[][] {Node.key(page, slot), Node.value(page, slot)});
        }
        return cells;
    }

    private static List<byte[][]> internalCells(MemorySegment page) {
        int count = Page.slotCount(page);
        List<byte[][]> cells = new ArrayList<>(count + 1);
        for (int slot = 0; slot < count; slot++) {
            cells.add(new byte[][] {Node.key(page, slot), toBytes(Node.child(page, SlottedPage.cellOffset(page, slot)))});
        }
        return cells;
    }

    /** The number of cells that stay left so both halves hold about the same bytes. */
    private static int balancedSplit(List<byte[][]> cells, boolean leaf) {
        long total = 0;
        for (byte[][] cell : cells) {
            total += cellSize(cell, leaf);
        }
        long running = 0;
        for (int index = 0; index < cells.size() - 1; index++) {
            running += cellSize(cell(cells, index), leaf);
            if (running >= total / 2) {
                return index + 1;
            }
        }
        return cells.size() - 1;
    }

    private static byte[][] cell(List<byte[][]> cells, int index) {
        return cells.get(index);
    }

    private static int cellSize(byte[][] cell, boolean leaf) {
        return (leaf ? Node.LEAF_CELL_OVERHEAD + cell[1].length : Node.INTERNAL_CELL_OVERHEAD) + cell[0].length
                + SlottedPage.SLOT_SIZE;
    }

    /** Formats {@code pageId} and fills it with {@code cells} in order. */
    private void writeNode(WriteSet writes, long pageId, PageType type, int level, long previous, long next,
                           long leftmostChild, List<byte[][]> cells, IoCounters counters) {
        try (PageRef ref = writes.isModified(pageId) ? writes.modify(pageId, counters) : writes.create(pageId)) {
            MemorySegment page = ref.page();
            Page.format(page, pageId, type, objectId, level);
            Page.setPrevious(page, previous);
            Page.setNext(page, next);
            Page.setSpecial(page, leftmostChild);
            boolean leaf = type == PageType.BTREE_LEAF;
            for (byte[][] cell : cells) {
                if (leaf) {
                    int offset = SlottedPage.append(page, Node.leafCellSize(cell[0], cell[1]), Node.LEAF_LENGTH);
                    Node.writeLeafCell(page, offset, cell[0], cell[1]);
                } else {
                    int offset = SlottedPage.append(page, Node.internalCellSize(cell[0]), Node.INTERNAL_LENGTH);
                    Node.writeInternalCell(page, offset, cell[0], toLong(cell[1]));
                }
            }
        }
    }

    /** The shortest prefix of {@code right} that sorts above {@code left} (and not above {@code right}). */
    static byte[] shortestSeparator(byte[] left, byte[] right) {
        int mismatch = Arrays.mismatch(left, right);
        if (mismatch < 0 || mismatch >= right.length) {
            return right.clone();
        }
        return Arrays.copyOf(right, mismatch + 1);
    }

    private static byte[] toBytes(long value) {
        byte[] bytes = new byte[8];
        for (int index = 0; index < 8; index++) {
            bytes[index] = (byte) (value >>> (56 - index * 8));
        }
        return bytes;
    }

    private static long toLong(byte[] bytes) {
        long value = 0;
        for (byte b : bytes) {
            value = (value << 8) | (b & 0xFF);
        }
        return value;
    }

    private static void checkEntry(byte[] key, byte[] value) {
        checkEntry(key, value.length);
    }

    private static void checkEntry(byte[] key, int valueLength) {
        if (key.length > Node.MAX_KEY_LENGTH) {
            throw new ColumbaException(ErrorCode.KEY_TOO_LARGE,
                    "index key of " + key.length + " bytes exceeds the maximum of " + Node.MAX_KEY_LENGTH);
        }
        if (Node.leafCellSize(key, valueLength) > Node.MAX_LEAF_CELL) {
            throw new ColumbaException(ErrorCode.ROW_TOO_LARGE, "index entry of " + (key.length + valueLength)
                    + " bytes exceeds the maximum of " + maxEntryLength());
        }
    }

    MemorySegment checkPage(MemorySegment page, long pageId) {
        PageType type = Page.type(page);
        if ((type != PageType.BTREE_LEAF && type != PageType.BTREE_INTERNAL) || Page.objectId(page) != objectId) {
            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "page " + pageId + " should be a B+tree page of object "
                    + objectId + " but is a " + type + " page of object " + Page.objectId(page));
        }
        return page;
    }

    private static ColumbaException tooDeep() {
        return new ColumbaException(ErrorCode.INDEX_CORRUPT, "B+tree deeper than " + MAX_DEPTH + " levels: a cycle?");
    }

    /** Internal pages visited from the root down, with the child index taken in each, and the leaf. */
    static final class Path {
        final long[] pages = new long[MAX_DEPTH];
        final int[] childIndexes = new int[MAX_DEPTH];
        int depth;
        long leaf;
        /** The leaf, pinned, when the descent had to read it (a root leaf); else null. */
        PageRef leafRef;
        /** The keys the leaf may hold, from its parent's separators (unknown for a root leaf). */
        final Node.LeafBounds bounds = new Node.LeafBounds();

        /** The leaf pinned for the caller: the one the descent read, or a fresh read. */
        PageRef takeLeaf(PageReader reader, Access access, IoCounters counters) {
            PageRef ref = leafRef;
            leafRef = null;
            return ref != null ? ref : reader.read(leaf, access, counters);
        }

        void releaseLeaf() {
            if (leafRef != null) {
                leafRef.close();
                leafRef = null;
            }
        }

        void push(long pageId, int childIndex) {
            pages[depth] = pageId;
            childIndexes[depth] = childIndex;
            depth++;
        }
    }
}

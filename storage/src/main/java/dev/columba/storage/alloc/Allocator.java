package dev.columba.storage.alloc;

import static dev.columba.storage.file.DataFileFormat.EXTENTS_PER_GAM;
import static dev.columba.storage.file.DataFileFormat.OAM_ENTRIES_PER_PAGE;
import static dev.columba.storage.file.DataFileFormat.OAM_ENTRY_SIZE;
import static dev.columba.storage.page.PageFormat.HEADER_SIZE;
import static dev.columba.storage.page.PageFormat.PAGES_PER_EXTENT;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.buffer.Access;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.buffer.PageRef;
import dev.columba.storage.buffer.WriteSet;
import dev.columba.storage.file.DataFile;
import dev.columba.storage.file.DataFiles;
import dev.columba.storage.file.FileManifest;
import dev.columba.storage.file.DataFileFormat;
import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.page.PageType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Space management in extents, as SQL Server does it: a global allocation map (GAM) has one bit
 * per 64 KB extent of the file; each object (table, index) owns whole extents, listed with a bitmap
 * of their pages in use in the object's chain of allocation-map pages (OAM, SQL Server's IAM).
 * Listing an object's extents sorted by extent number gives its allocation order, which is the
 * order of an allocation-order scan and the run structure that read-ahead can exploit.
 *
 * <p>Extents are taken first-fit from the start of the file, so a table loaded alone is contiguous
 * and two tables loaded together interleave, which the fragmentation statistics then show.
 *
 * <p>All changes go through a {@link WriteSet}, so they commit or roll back with the transaction
 * that made them. The in-memory hints (where the next free page or extent probably is) are only
 * hints: they are checked against the pages, and {@link #forgetHints()} resets them after a rollback.
 * Used by the single writer only.
 */
public final class Allocator {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final DataFiles files;
    /** Per object (by first OAM page): the first entry that may have a free page. */
    private final Map<Long, Position> hints = new HashMap<>();
    /** Per file: no extent of the file below this (an extent number within the file) is free. */
    private final long[] freeExtentHints = new long[PageFormat.MAX_FILES];
    /** Per filegroup: how many extents it has handed out, which picks the file of the next one. */
    private final Map<Integer, Integer> roundRobin = new HashMap<>();
    /** Per heap (by first OAM page): the page new rows were last put on. */
    private final Map<Long, Long> insertPageHints = new HashMap<>();
    private final FreedExtents freedExtents = new FreedExtents();

    private record Position(long oamPage, int entry) {
    }

    public Allocator(DataFile file) {
        this(DataFiles.single(file));
    }

    public Allocator(DataFiles files) {
        this.files = files;
        java.util.Arrays.fill(freeExtentHints, 1);
    }

    /** The extents freed since the last checkpoint's redo point (for minimally logged pages). */
    public FreedExtents freedExtents() {
        return freedExtents;
    }

    /** Formats the first global allocation map of a new file (extent 0, the system extent, in use). */
    public static void formatFirstGam(WriteSet writes) {
        try (PageRef ref = writes.create(DataFileFormat.FIRST_GAM_PAGE)) {
            Page.format(ref.page(), DataFileFormat.FIRST_GAM_PAGE, PageType.GLOBAL_ALLOCATION_MAP, 0, 0);
            setBit(ref.page(), 0);
        }
    }

    /**
     * Creates the allocation map of a new object in a fresh extent of its own.
     *
     * @return the object's first OAM page, which identifies its allocation from now on
     */
    public long createObject(WriteSet writes, int objectId, IoCounters counters) {
        return createObject(writes, objectId, FileManifest.PRIMARY_FILEGROUP, counters);
    }

    /**
     * Creates the allocation map of a new object placed on filegroup {@code filegroupId}: its
     * extents, this first one included, come from the filegroup's files in turn.
     */
    public long createObject(WriteSet writes, int objectId, int filegroupId, IoCounters counters) {
        long extent = allocateExtent(writes, filegroupId, counters);
        long oamPage = PageFormat.firstPageOf(extent);
        try (PageRef ref = writes.create(oamPage)) {
            Page.format(ref.page(), oamPage, PageType.OBJECT_ALLOCATION_MAP, objectId, 0);
            appendEntry(ref.page(), extent, 1);
        }
        hints.put(oamPage, new Position(oamPage, 0));
        return oamPage;
    }

    /**
     * Allocates one page for the object; the caller creates and formats it through the write set.
     */
    public long allocatePage(WriteSet writes, int objectId, long firstOamPage, IoCounters counters) {
        Position position = hints.getOrDefault(firstOamPage, new Position(firstOamPage, 0));
        long oamPage = position.oamPage();
        int entry = position.entry();
        long lastOamPage = firstOamPage;
        while (oamPage != PageFormat.NO_PAGE) {
            lastOamPage = oamPage;
            int found = -1;
            try (PageRef ref = writes.read(oamPage, Access.RANDOM, counters)) {
                checkOam(ref.page(), oamPage, objectId);
                int count = Page.slotCount(ref.page());
                if (entry > count) {
                    entry = 0;
                }
                for (int index = entry; index < count; index++) {
                    if (bitmapAt(ref.page(), index) != 0xFF) {
                        found = index;
                        break;
                    }
                }
                if (found < 0) {
                    oamPage = Page.next(ref.page());
                    entry = 0;
                    continue;
                }
            }
            try (PageRef ref = writes.modify(oamPage, counters)) {
                int bitmap = bitmapAt(ref.page(), found);
                int pageInExtent = Integer.numberOfTrailingZeros(~bitmap);
                setBitmapAt(ref.page(), found, bitmap | (1 << pageInExtent));
                hints.put(firstOamPage, new Position(oamPage, found));
                return PageFormat.firstPageOf(extentAt(ref.page(), found)) + pageInExtent;
            }
        }
        long extent = allocateExtent(writes, files.filegroupOf(PageFormat.fileOf(firstOamPage)), counters);
        long pageId = PageFormat.firstPageOf(extent);
        boolean appended;
        try (PageRef last = writes.modify(lastOamPage, counters)) {
            appended = Page.slotCount(last.page()) < OAM_ENTRIES_PER_PAGE;
            if (appended) {
                appendEntry(last.page(), extent, 1);
                hints.put(firstOamPage, new Position(lastOamPage, Page.slotCount(last.page()) - 1));
            } else {
                // The chain's last page is full: the new extent's first page continues the chain.
                Page.setNext(last.page(), pageId);
            }
        }
        if (appended) {
            return pageId;
        }
        try (PageRef next = writes.create(pageId)) {
            Page.format(next.page(), pageId, PageType.OBJECT_ALLOCATION_MAP, objectId, 0);
            Page.setPrevious(next.page(), lastOamPage);
            appendEntry(next.page(), extent, 0b11);
        }
        hints.put(firstOamPage, new Position(pageId, 0));
        return pageId + 1;
    }

    /** Returns a page to its object's free pages; an extent left empty goes back to the file. */
    public void freePage(WriteSet writes, long firstOamPage, long pageId, IoCounters counters) {
        long extent = PageFormat.extentOf(pageId);
        int pageInExtent = (int) (pageId % PAGES_PER_EXTENT);
        for (long oamPage = firstOamPage; oamPage != PageFormat.NO_PAGE; ) {
            int found = -1;
            long next;
            try (PageRef ref = writes.read(oamPage, Access.RANDOM, counters)) {
                int count = Page.slotCount(ref.page());
                for (int index = 0; index < count; index++) {
                    if (extentAt(ref.page(), index) == extent) {
                        found = index;
                        break;
                    }
                }
                next = Page.next(ref.page());
            }
            if (found >= 0) {
                try (PageRef ref = writes.modify(oamPage, counters)) {
                    int bitmap = bitmapAt(ref.page(), found);
                    if ((bitmap & (1 << pageInExtent)) == 0) {
                        throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "page " + pageId + " freed twice");
                    }
                    setBitmapAt(ref.page(), found, bitmap & ~(1 << pageInExtent));
                }
                freedExtents.freed(extent);
                Position hint = hints.get(firstOamPage);
                if (hint == null || hint.oamPage() != oamPage || hint.entry() > found) {
                    hints.put(firstOamPage, new Position(oamPage, found));
                }
                return;
            }
            oamPage = next;
        }
        throw new ColumbaException(ErrorCode.INDEX_CORRUPT,
                "page " + pageId + " is not in the allocation map starting at page " + firstOamPage);
    }

    /** Frees every extent of the object, its allocation-map pages included. */
    public void dropObject(WriteSet writes, long firstOamPage, IoCounters counters) {
        for (ExtentEntry entry : extents(writes, firstOamPage, counters)) {
            freeExtent(writes, entry.extent(), counters);
        }
        hints.remove(firstOamPage);
        insertPageHints.remove(firstOamPage);
    }

    /** The page an object last inserted into, or {@link PageFormat#NO_PAGE}: a hint, check it. */
    public long insertPageHint(long firstOamPage) {
        return insertPageHints.getOrDefault(firstOamPage, PageFormat.NO_PAGE);
    }

    public void rememberInsertPage(long firstOamPage, long pageId) {
        insertPageHints.put(firstOamPage, pageId);
    }

    /** Forgets every hint; called after a rollback undid allocations the hints may point past. */
    public void forgetHints() {
        insertPageHints.clear();
        hints.clear();
        java.util.Arrays.fill(freeExtentHints, 1);
    }

    /**
     * The object's extents in allocation order (by extent number), with their page bitmaps.
     */
    public static List<ExtentEntry> extents(PageReader reader, long firstOamPage, IoCounters counters) {
        List<ExtentEntry> result = new ArrayList<>();
        for (long oamPage = firstOamPage; oamPage != PageFormat.NO_PAGE; ) {
            try (PageRef ref = reader.read(oamPage, Access.RANDOM, counters)) {
                int count = Page.slotCount(ref.page());
                for (int index = 0; index < count; index++) {
                    result.add(new ExtentEntry(extentAt(ref.page(), index), bitmapAt(ref.page(), index)));
                }
                oamPage = Page.next(ref.page());
            }
        }
        result.sort(Comparator.comparingLong(ExtentEntry::extent));
        return result;
    }

    /** The allocation-map pages of the object, in chain order. */
    public static List<Long> mapPages(PageReader reader, long firstOamPage, IoCounters counters) {
        List<Long> result = new ArrayList<>();
        for (long oamPage = firstOamPage; oamPage != PageFormat.NO_PAGE; ) {
            result.add(oamPage);
            try (PageRef ref = reader.read(oamPage, Access.RANDOM, counters)) {
                oamPage = Page.next(ref.page());
            }
        }
        return result;
    }

    // ---- extents -------------------------------------------------------------------------------

    /**
     * Takes an extent from the filegroup's files in turn, SQL Server's proportional fill for files
     * that grow as needed (equal free space, so equal shares): one object loaded alone alternates
     * its extents over every file of its filegroup, and a scan of it reads from all of them.
     */
    private long allocateExtent(WriteSet writes, int filegroupId, IoCounters counters) {
        List<DataFile> members = files.filesOf(filegroupId);
        if (members.isEmpty()) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "filegroup "
                    + files.manifest().filegroup(filegroupId).name() + " has no files: add one with ALTER DATABASE ADD FILE");
        }
        int turn = roundRobin.merge(filegroupId, 1, Integer::sum) - 1;
        return allocateExtent(writes, members.get(Math.floorMod(turn, members.size())), counters);
    }

    private long allocateExtent(WriteSet writes, DataFile file, IoCounters counters) {
        int fileId = file.fileId();
        long fileBase = (long) fileId << DataFileFormat.EXTENT_FILE_SHIFT;
        for (long interval = freeExtentHints[fileId] / EXTENTS_PER_GAM; ; interval++) {
            long base = interval * EXTENTS_PER_GAM;
            if (base > DataFileFormat.EXTENT_IN_FILE_MASK) {
                throw new ColumbaException(ErrorCode.DISK_FULL, "data file " + file.path() + " is full: a file holds at most "
                        + (DataFileFormat.EXTENT_IN_FILE_MASK + 1) + " extents; add a file to its filegroup");
            }
            long gamPage = DataFileFormat.gamPageFor(fileBase + base);
            // Bit 0 of every interval is its system extent, which holds the map page itself.
            int from = (int) Math.max(1, freeExtentHints[fileId] - base);
            file.ensureExtent(base);
            int free;
            boolean formatted;
            try (PageRef ref = writes.read(gamPage, Access.RANDOM, counters)) {
                formatted = Page.type(ref.page()) == PageType.GLOBAL_ALLOCATION_MAP;
                free = formatted ? firstClearBit(ref.page(), from) : from;
            }
            if (free < 0 || base + free > DataFileFormat.EXTENT_IN_FILE_MASK) {
                freeExtentHints[fileId] = base + EXTENTS_PER_GAM;
                continue;
            }
            try (PageRef ref = formatted ? writes.modify(gamPage, counters) : writes.create(gamPage)) {
                if (!formatted) {
                    Page.format(ref.page(), gamPage, PageType.GLOBAL_ALLOCATION_MAP, 0, 0);
                    setBit(ref.page(), 0);
                }
                setBit(ref.page(), free);
            }
            long extent = base + free;
            freeExtentHints[fileId] = extent + 1;
            file.ensureExtent(extent);
            return fileBase + extent;
        }
    }

    private void freeExtent(WriteSet writes, long extent, IoCounters counters) {
        freedExtents.freed(extent);
        long gamPage = DataFileFormat.gamPageFor(extent);
        try (PageRef ref = writes.modify(gamPage, counters)) {
            int bit = (int) (DataFileFormat.extentInFile(extent) % EXTENTS_PER_GAM);
            MemorySegment page = ref.page();
            long byteOffset = HEADER_SIZE + bit / 8;
            byte value = page.get(ValueLayout.JAVA_BYTE, byteOffset);
            page.set(ValueLayout.JAVA_BYTE, byteOffset, (byte) (value & ~(1 << (bit % 8))));
        }
        int fileId = DataFileFormat.fileOfExtent(extent);
        freeExtentHints[fileId] = Math.min(freeExtentHints[fileId], DataFileFormat.extentInFile(extent));
    }

    private static int firstClearBit(MemorySegment gam, int fromBit) {
        for (int bit = fromBit; bit < EXTENTS_PER_GAM; ) {
            if (bit % 8 == 0 && gam.get(ValueLayout.JAVA_BYTE, HEADER_SIZE + bit / 8) == (byte) 0xFF) {
                bit += 8;
                continue;
            }
            int value = gam.get(ValueLayout.JAVA_BYTE, HEADER_SIZE + bit / 8);
            if ((value & (1 << (bit % 8))) == 0) {
                return bit;
            }
            bit++;
        }
        return -1;
    }

    private static void setBit(MemorySegment gam, int bit) {
        long byteOffset = HEADER_SIZE + bit / 8;
        byte value = gam.get(ValueLayout.JAVA_BYTE, byteOffset);
        gam.set(ValueLayout.JAVA_BYTE, byteOffset, (byte) (value | (1 << (bit % 8))));
    }

    // ---- object allocation map entries ------------------------------------------------------

    private static void checkOam(MemorySegment page, long oamPage, int objectId) {
        if (Page.type(page) != PageType.OBJECT_ALLOCATION_MAP || Page.objectId(page) != objectId) {
            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "page " + oamPage + " should be an allocation map of object "
                    + objectId + " but is a " + Page.type(page) + " page of object " + Page.objectId(page));
        }
    }

    private static long entryOffset(int entry) {
        return HEADER_SIZE + (long) entry * OAM_ENTRY_SIZE;
    }

    static long extentAt(MemorySegment page, int entry) {
        return Integer.toUnsignedLong(page.get(INT, entryOffset(entry)));
    }

    static int bitmapAt(MemorySegment page, int entry) {
        return Byte.toUnsignedInt(page.get(ValueLayout.JAVA_BYTE, entryOffset(entry) + 4));
    }

    private static void setBitmapAt(MemorySegment page, int entry, int bitmap) {
        page.set(ValueLayout.JAVA_BYTE, entryOffset(entry) + 4, (byte) bitmap);
    }

    private static void appendEntry(MemorySegment page, long extent, int bitmap) {
        int count = Page.slotCount(page);
        page.set(INT, entryOffset(count), (int) extent);
        page.set(ValueLayout.JAVA_BYTE, entryOffset(count) + 4, (byte) bitmap);
        Page.setSlotCount(page, count + 1);
    }
}

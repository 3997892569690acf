package dev.columba.storage.heap;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.alloc.AllocationOrderScan;
import dev.columba.storage.alloc.Allocator;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.buffer.Access;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.buffer.PageRef;
import dev.columba.storage.buffer.WriteSet;
import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.page.PageType;
import dev.columba.storage.page.SlottedPage;
import dev.columba.storage.row.CompressedRowCodec;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A table without a clustered index: rows on HEAP pages in no particular order, addressed by a row
 * id {@code (page << 16) | slot} that never changes while the row lives (deleted slots become
 * tombstones, so later slots keep their numbers). Scans go in allocation order.
 *
 * <p>New rows go to the page rows were last put on, or a fresh page: space freed by deletes is not
 * reused until the table is rebuilt (an append-mostly heap, as analytical loads are).
 *
 * <pre>
 * cell: u16 row length | row bytes
 * </pre>
 *
 * <p>A heap with {@link DataCompression} ROW or PAGE keeps its rows as compressed records on
 * version-2 pages (docs/format/data-file.md, "Compressed heap pages"), converted from and to the row
 * format here, so callers see rows as ever. Under PAGE a page that fills is recompressed whole, its
 * anchors and dictionary chosen for the rows it holds, and later rows on it are encoded against
 * them; a deleted row leaves a tombstone as on any heap page, and its bytes come back at the next
 * recompression (docs/design/storage.md, "Data compression").
 */
public final class Heap {
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final SlottedPage.CellLength CELL_LENGTH = (page, cell) -> 2 + Short.toUnsignedInt(page.get(SHORT, cell));
    /** Largest row: as for B+tree leaves, so a row fits wherever the table's rows may move. */
    public static final int MAX_ROW_LENGTH = PageFormat.USABLE_SIZE / 4 - SlottedPage.SLOT_SIZE - 4;

    private final int objectId;
    private final long firstOamPage;
    private final DataCompression compression;
    /** Null without compression. */
    private final CompressedRowCodec codec;

    public Heap(int objectId, long firstOamPage) {
        this(objectId, firstOamPage, DataCompression.NONE, null);
    }

    /** A heap whose rows are stored with {@code compression}; {@code codec} is the table's, null for NONE. */
    public Heap(int objectId, long firstOamPage, DataCompression compression, CompressedRowCodec codec) {
        if ((compression == DataCompression.NONE) != (codec == null)) {
            throw new IllegalArgumentException("a codec is needed exactly for ROW and PAGE compression, not " + compression);
        }
        this.objectId = objectId;
        this.firstOamPage = firstOamPage;
        this.compression = compression;
        this.codec = codec;
    }

    public DataCompression compression() {
        return compression;
    }

    /**
     * The longest row (row format) {@link #insert} takes: a compressed record may exceed its row by
     * {@link CompressedRowCodec#maxGrowth()}, and must still fit the cell limit.
     */
    public int maxRowLength() {
        return codec == null ? MAX_ROW_LENGTH : MAX_ROW_LENGTH - codec.maxGrowth();
    }

    public static Heap create(WriteSet writes, Allocator allocator, int objectId, IoCounters counters) {
        return create(writes, allocator, objectId, dev.columba.storage.file.FileManifest.PRIMARY_FILEGROUP, counters);
    }

    /** Creates an empty heap whose pages come from filegroup {@code filegroupId}'s files. */
    public static Heap create(WriteSet writes, Allocator allocator, int objectId, int filegroupId, IoCounters counters) {
        return new Heap(objectId, allocator.createObject(writes, objectId, filegroupId, counters));
    }

    public long firstOamPage() {
        return firstOamPage;
    }

    public static long rowId(long pageId, int slot) {
        return (pageId << 16) | slot;
    }

    public static long pageOf(long rowId) {
        return rowId >>> 16;
    }

    public static int slotOf(long rowId) {
        return (int) (rowId & 0xFFFF);
    }

    /** Stores a row; returns its row id. */
    public long insert(WriteSet writes, Allocator allocator, byte[] row, IoCounters counters) {
        if (codec != null) {
            return insertCompressed(writes, allocator, row, counters);
        }
        if (row.length > MAX_ROW_LENGTH) {
            throw new ColumbaException(ErrorCode.ROW_TOO_LARGE,
                    "row of " + row.length + " bytes exceeds the heap maximum of " + MAX_ROW_LENGTH);
        }
        int cellLength = 2 + row.length;
        long pageId = allocator.insertPageHint(firstOamPage);
        if (pageId != PageFormat.NO_PAGE) {
            try (PageRef ref = writes.read(pageId, Access.RANDOM, counters)) {
                if (!isHeapPage(ref.page()) || !SlottedPage.fits(ref.page(), cellLength)) {
                    pageId = PageFormat.NO_PAGE;
                }
            }
        }
        PageRef ref;
        if (pageId == PageFormat.NO_PAGE) {
            pageId = allocator.allocatePage(writes, objectId, firstOamPage, counters);
            ref = writes.create(pageId);
            Page.format(ref.page(), pageId, PageType.HEAP, objectId, 0);
            allocator.rememberInsertPage(firstOamPage, pageId);
        } else {
            ref = writes.modify(pageId, counters);
        }
        try (ref) {
            MemorySegment page = ref.page();
            int slot = Page.slotCount(page);
            int cell = SlottedPage.append(page, cellLength, CELL_LENGTH);
            page.set(SHORT, cell, (short) row.length);
            MemorySegment.copy(row, 0, page, ValueLayout.JAVA_BYTE, cell + 2, row.length);
            return rowId(pageId, slot);
        }
    }

    /** A copy of the row, or null if it was deleted or never existed. */
    public byte[] fetch(PageReader reader, long rowId, IoCounters counters) {
        long pageId = pageOf(rowId);
        int slot = slotOf(rowId);
        try (PageRef ref = reader.read(pageId, Access.RANDOM, counters)) {
            MemorySegment page = ref.page();
            checkPage(page, pageId);
            if (slot >= Page.slotCount(page)) {
                return null;
            }
            int cell = SlottedPage.cellOffset(page, slot);
            if (cell == 0) {
                return null;
            }
            int length = Short.toUnsignedInt(page.get(SHORT, cell));
            if (isCompressed(page)) {
                CompressedRowCodec.ColumnBytes values = codec.newColumns();
                codec.decode(page, cell + 2, length, compressionInfo(page), values);
                CompressedRowCodec.RowBuffer buffer = new CompressedRowCodec.RowBuffer();
                int rowLength = codec.toRow(values, buffer);
                return buffer.segment().asSlice(0, rowLength).toArray(ValueLayout.JAVA_BYTE);
            }
            return page.asSlice(cell + 2, length).toArray(ValueLayout.JAVA_BYTE);
        }
    }

    // ---- Compressed pages ---------------------------------------------------------------------

    /** Whether {@code page} holds compressed records; checked against this heap's compression. */
    private boolean isCompressed(MemorySegment page) {
        boolean compressed = Page.formatVersion(page) == PageFormat.COMPRESSED_HEAP_FORMAT_VERSION;
        if (compressed != (codec != null)) {
            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "heap page " + Page.pageId(page) + " of object " + objectId
                    + (compressed ? " holds compressed records but the table is not compressed"
                    : " holds uncompressed rows but the table is " + compression + "-compressed"));
        }
        return compressed;
    }

    /** The page's compression info, or null (ROW compression, or a PAGE page not yet recompressed). */
    CompressedRowCodec.CompressionInfo compressionInfo(MemorySegment page) {
        long offset = Page.special(page);
        if ((Page.flags(page) & PageFormat.FLAG_PAGE_COMPRESSED) == 0 || offset == 0) {
            return null;
        }
        if (offset < PageFormat.HEADER_SIZE || offset >= PageFormat.PAGE_SIZE) {
            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "heap page " + Page.pageId(page) + " puts its compression"
                    + " info at offset " + offset);
        }
        return codec.readInfo(page.asSlice(0, PageFormat.PAGE_SIZE), offset);
    }

    private long insertCompressed(WriteSet writes, Allocator allocator, byte[] row, IoCounters counters) {
        if (row.length > maxRowLength()) {
            throw new ColumbaException(ErrorCode.ROW_TOO_LARGE,
                    "row of " + row.length + " bytes exceeds the compressed heap maximum of " + maxRowLength());
        }
        CompressedRowCodec.ColumnBytes values = codec.newColumns();
        codec.fromRow(MemorySegment.ofArray(row), 0, values);
        long pageId = allocator.insertPageHint(firstOamPage);
        if (pageId != PageFormat.NO_PAGE) {
            boolean usable;
            try (PageRef ref = writes.read(pageId, Access.RANDOM, counters)) {
                usable = isHeapPage(ref.page()) && isCompressed(ref.page());
            }
            if (usable) {
                try (PageRef ref = writes.modify(pageId, counters)) {
                    MemorySegment page = ref.page();
                    byte[] record = codec.encode(values, compressionInfo(page));
                    if (!fitsContiguous(page, record.length) && compression == DataCompression.PAGE
                            && worthRecompressing(page)) {
                        recompress(page, values);
                        record = codec.encode(values, compressionInfo(page));
                    }
                    if (fitsContiguous(page, record.length)) {
                        return append(page, pageId, record);
                    }
                }
            }
        }
        pageId = allocator.allocatePage(writes, objectId, firstOamPage, counters);
        try (PageRef ref = writes.create(pageId)) {
            MemorySegment page = ref.page();
            Page.format(page, pageId, PageType.HEAP, objectId, 0);
            Page.setFormatVersion(page, PageFormat.COMPRESSED_HEAP_FORMAT_VERSION);
            Page.setFlags(page, PageFormat.FLAG_ROW_COMPRESSED
                    | (compression == DataCompression.PAGE ? PageFormat.FLAG_PAGE_COMPRESSED : 0));
            allocator.rememberInsertPage(firstOamPage, pageId);
            return append(page, pageId, codec.encode(values, null));
        }
    }

    /**
     * Compressed pages append only into contiguous free space: compacting would move cells over the
     * compression info, which no slot points at. Deleted rows' bytes come back when the page is
     * recompressed.
     */
    private static boolean fitsContiguous(MemorySegment page, int recordLength) {
        return Page.contiguousFree(page) >= 2 + recordLength + SlottedPage.SLOT_SIZE;
    }

    private static long append(MemorySegment page, long pageId, byte[] record) {
        int slot = Page.slotCount(page);
        int cell = SlottedPage.append(page, 2 + record.length, CELL_LENGTH);
        page.set(SHORT, cell, (short) record.length);
        MemorySegment.copy(record, 0, page, ValueLayout.JAVA_BYTE, cell + 2, record.length);
        return rowId(pageId, slot);
    }

    /**
     * Whether a full PAGE-compressed page may gain from recompression: it was never compressed, or
     * a quarter of its slots (at least 8) came after its last compression, or deleted rows left
     * garbage worth an eighth of the page. So a page is recompressed a few times as it fills, not
     * once per row.
     */
    private static boolean worthRecompressing(MemorySegment page) {
        int slots = Page.slotCount(page);
        if (Page.special(page) == 0) {
            return slots > 0;
        }
        int compressedSlots = Short.toUnsignedInt(page.get(SHORT, Page.special(page) - 2));
        return slots - compressedSlots >= Math.max(8, slots / 4) || Page.garbageBytes(page) >= PageFormat.USABLE_SIZE / 8;
    }

    /**
     * Rewrites a PAGE-compressed page: decodes its live records, chooses anchors and a dictionary
     * for them and {@code incoming} (the row about to be added), and encodes every record against
     * them in its own slot, tombstones kept. Leaves the page unchanged when the result would not be
     * smaller.
     */
    private void recompress(MemorySegment page, CompressedRowCodec.ColumnBytes incoming) {
        CompressedRowCodec.CompressionInfo oldInfo = compressionInfo(page);
        int slots = Page.slotCount(page);
        List<CompressedRowCodec.ColumnBytes> live = new ArrayList<>();
        int[] liveSlots = new int[slots];
        int liveCount = 0;
        for (int slot = 0; slot < slots; slot++) {
            int cell = SlottedPage.cellOffset(page, slot);
            if (cell == 0) {
                continue;
            }
            CompressedRowCodec.ColumnBytes values = codec.newColumns();
            codec.decode(page, cell + 2, Short.toUnsignedInt(page.get(SHORT, cell)), oldInfo, values);
            live.add(values);
            liveSlots[liveCount++] = slot;
        }
        List<CompressedRowCodec.ColumnBytes> sample = new ArrayList<>(live);
        sample.add(incoming);
        CompressedRowCodec.CompressionInfo info = codec.analyze(sample);
        byte[][] records = new byte[liveCount][];
        // The info block is preceded by a u16: the slot count when it was written (worthRecompressing).
        int used = 2 + info.byteLength();
        for (int index = 0; index < liveCount; index++) {
            records[index] = codec.encode(live.get(index), info);
            used += 2 + records[index].length;
        }
        int oldUsed = PageFormat.PAGE_SIZE - Page.freeEnd(page) - Page.garbageBytes(page);
        if (used >= oldUsed) {
            // No gain: remember the attempt so the page is not tried again at once.
            if (Page.special(page) != 0) {
                page.set(SHORT, Page.special(page) - 2, (short) slots);
            }
            return;
        }
        int freeEnd = PageFormat.PAGE_SIZE - info.byteLength();
        info.write(page, freeEnd);
        Page.setSpecial(page, freeEnd);
        freeEnd -= 2;
        page.set(SHORT, freeEnd, (short) slots);
        for (int slot = 0; slot < slots; slot++) {
            SlottedPage.setCellOffset(page, slot, 0);
        }
        for (int index = 0; index < liveCount; index++) {
            byte[] record = records[index];
            freeEnd -= 2 + record.length;
            page.set(SHORT, freeEnd, (short) record.length);
            MemorySegment.copy(record, 0, page, ValueLayout.JAVA_BYTE, freeEnd + 2, record.length);
            SlottedPage.setCellOffset(page, liveSlots[index], freeEnd);
        }
        page.asSlice(Page.freeStart(page), freeEnd - Page.freeStart(page)).fill((byte) 0);
        Page.setFreeEnd(page, freeEnd);
        Page.setGarbageBytes(page, 0);
    }

    /** Deletes a row; false if there was none. */
    public boolean delete(WriteSet writes, long rowId, IoCounters counters) {
        long pageId = pageOf(rowId);
        int slot = slotOf(rowId);
        try (PageRef ref = writes.modify(pageId, counters)) {
            MemorySegment page = ref.page();
            checkPage(page, pageId);
            if (slot >= Page.slotCount(page) || SlottedPage.cellOffset(page, slot) == 0) {
                return false;
            }
            int cell = SlottedPage.cellOffset(page, slot);
            SlottedPage.tombstone(page, slot, CELL_LENGTH.at(page, cell));
            return true;
        }
    }

    /** Opens an allocation-order scan over the live rows. */
    public HeapCursor scan(PageReader reader, ReadAheadOptions readAhead, IoCounters counters) {
        return scan(reader, 0, Long.MAX_VALUE, readAhead, counters);
    }

    /** An allocation-order scan of the live rows on the pages whose ids lie in {@code [firstPage, endPage)}. */
    public HeapCursor scan(PageReader reader, long firstPage, long endPage, ReadAheadOptions readAhead, IoCounters counters) {
        return new HeapCursor(this, new AllocationOrderScan(reader, firstOamPage, firstPage, endPage, readAhead, counters));
    }

    private boolean isHeapPage(MemorySegment page) {
        return Page.type(page) == PageType.HEAP && Page.objectId(page) == objectId;
    }

    private void checkPage(MemorySegment page, long pageId) {
        if (!isHeapPage(page)) {
            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "page " + pageId + " should be a heap page of object "
                    + objectId + " but is a " + Page.type(page) + " page of object " + Page.objectId(page));
        }
    }

    /** The rows of a heap in allocation order; the current row is valid until the next move. */
    public static final class HeapCursor implements AutoCloseable {
        private final Heap heap;
        private final AllocationOrderScan pages;
        private PageRef current;
        private int slot;
        private int cell;
        /** For compressed pages: the current page's compression info, parsed once per page. */
        private boolean compressedPage;
        private CompressedRowCodec.CompressionInfo info;
        private boolean infoRead;
        private CompressedRowCodec.ColumnBytes values;
        private CompressedRowCodec.RowBuffer buffer;
        /** The slot whose record {@link #buffer} holds as a row, -1 for none. */
        private int transcodedSlot = -1;

        HeapCursor(Heap heap, AllocationOrderScan pages) {
            this.heap = heap;
            this.pages = pages;
        }

        public boolean next() {
            while (true) {
                if (current != null) {
                    MemorySegment page = current.page();
                    while (slot < Page.slotCount(page)) {
                        cell = SlottedPage.cellOffset(page, slot++);
                        if (cell != 0) {
                            return true;
                        }
                    }
                    current.close();
                    current = null;
                }
                PageRef next = pages.nextPage();
                if (next == null) {
                    return false;
                }
                if (Page.type(next.page()) != PageType.HEAP) {
                    next.close();
                    continue;
                }
                current = next;
                slot = 0;
                transcodedSlot = -1;
                compressedPage = heap.isCompressed(next.page());
                info = null;
                infoRead = false;
                if (compressedPage) {
                    if (values == null) {
                        values = heap.codec.newColumns();
                        buffer = new CompressedRowCodec.RowBuffer();
                    }
                }
            }
        }

        /**
         * The segment holding the current row in row format: the page itself, or for a compressed
         * page a buffer the record was decompressed into (valid until the next move).
         */
        public MemorySegment rowSegment() {
            if (!compressedPage) {
                return current.page();
            }
            if (transcodedSlot != slot) {
                MemorySegment page = current.page();
                if (!infoRead) {
                    // Parsed on the first row decoded: a scan that only counts rows never needs it.
                    info = heap.compressionInfo(page);
                    infoRead = true;
                }
                heap.codec.decode(page, cell + 2, Short.toUnsignedInt(page.get(SHORT, cell)), info, values);
                heap.codec.toRow(values, buffer);
                transcodedSlot = slot;
            }
            return buffer.segment();
        }

        /** The current row's offset in {@link #rowSegment()}. */
        public int rowSegmentOffset() {
            return compressedPage ? 0 : cell + 2;
        }

        /**
         * Moves over up to {@code count} live rows, a page's slot array at a time, and returns how
         * many it passed; afterwards the cursor stands on the last of them, as after as many
         * {@link #next()} calls.
         */
        public int skip(int count) {
            int skipped = 0;
            while (skipped < count) {
                if (current != null) {
                    MemorySegment page = current.page();
                    int slots = Page.slotCount(page);
                    while (slot < slots && skipped < count) {
                        int offset = SlottedPage.cellOffset(page, slot++);
                        if (offset != 0) {
                            cell = offset;
                            skipped++;
                        }
                    }
                    if (skipped == count) {
                        return skipped;
                    }
                }
                if (!next()) {
                    return skipped;
                }
                skipped++;
            }
            return skipped;
        }

        public MemorySegment page() {
            return current.page();
        }

        public long rowId() {
            return Heap.rowId(current.pageId(), slot - 1);
        }

        public int rowOffset() {
            return cell + 2;
        }

        public int rowLength() {
            return Short.toUnsignedInt(current.page().get(SHORT, cell));
        }

        @Override
        public void close() {
            if (current != null) {
                current.close();
                current = null;
            }
            pages.close();
        }
    }
}

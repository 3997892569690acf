package dev.columba.storage.page;

/**
 * Constants of the data-file page layout shared by readers and writers. The specification is
 * docs/format/data-file.md; change both together and bump {@link #PAGE_FORMAT_VERSION}.
 *
 * <p>Every page starts with a 64-byte header, little-endian:
 * <pre>
 * offset size field
 *  0     4    checksum       CRC32C of bytes 4..8191, written when the page goes to disk
 *  4     1    page type      {@link PageType} code
 *  5     1    format version {@link #PAGE_FORMAT_VERSION}
 *  6     2    flags          reserved, 0
 *  8     8    page id        the page's own number, to detect misdirected writes
 * 16     8    LSN            log position of the last change applied
 * 24     4    object id      owning table or index (0 = database-wide structure)
 * 28     2    level          B+tree level, 0 for leaves
 * 30     2    slot count
 * 32     2    free start     first byte after the slot array
 * 34     2    free end       first byte of cell data (cells grow down from the end)
 * 36     2    garbage bytes  bytes of deleted cells not yet compacted away
 * 38     2    reserved, 0
 * 40     8    previous page  sibling link (0 = none)
 * 48     8    next page      sibling link (0 = none)
 * 56     8    special        type-specific: leftmost child of an internal page, ...
 * </pre>
 */
public final class PageFormat {
    private PageFormat() {
    }

    public static final int PAGE_SIZE = 8192;
    public static final int PAGES_PER_EXTENT = 8;
    public static final int EXTENT_SIZE = PAGE_SIZE * PAGES_PER_EXTENT;
    public static final int HEADER_SIZE = 64;
    /** The format version of every page but a compressed heap page. */
    public static final int PAGE_FORMAT_VERSION = 1;
    /**
     * Version 2: a heap page of a ROW- or PAGE-compressed table (docs/format/data-file.md, "Compressed
     * heap pages"); its flags say which, and its cells hold compressed records (compressed-row.md).
     */
    public static final int COMPRESSED_HEAP_FORMAT_VERSION = 2;
    /** The newest page format version this build reads. */
    public static final int MAX_PAGE_FORMAT_VERSION = COMPRESSED_HEAP_FORMAT_VERSION;
    /** Flag of a version-2 heap page: its cells are compressed records. */
    public static final int FLAG_ROW_COMPRESSED = 0x1;
    /** Flag of a version-2 heap page: PAGE compression; {@code special} is its compression info's offset (0: none yet). */
    public static final int FLAG_PAGE_COMPRESSED = 0x2;

    /** Page id 0 is the file header, never a link target, so it doubles as "no page". */
    public static final long NO_PAGE = 0;

    public static final int CHECKSUM_OFFSET = 0;
    public static final int TYPE_OFFSET = 4;
    public static final int VERSION_OFFSET = 5;
    public static final int FLAGS_OFFSET = 6;
    public static final int PAGE_ID_OFFSET = 8;
    public static final int LSN_OFFSET = 16;
    public static final int OBJECT_ID_OFFSET = 24;
    public static final int LEVEL_OFFSET = 28;
    public static final int SLOT_COUNT_OFFSET = 30;
    public static final int FREE_START_OFFSET = 32;
    public static final int FREE_END_OFFSET = 34;
    public static final int GARBAGE_OFFSET = 36;
    public static final int PREVIOUS_OFFSET = 40;
    public static final int NEXT_OFFSET = 48;
    public static final int SPECIAL_OFFSET = 56;

    /** The bytes a page can use for slots and cells. */
    public static final int USABLE_SIZE = PAGE_SIZE - HEADER_SIZE;

    public static long extentOf(long pageId) {
        return pageId / PAGES_PER_EXTENT;
    }

    public static long firstPageOf(long extent) {
        return extent * PAGES_PER_EXTENT;
    }

    /**
     * Bits of a page id that number the page within its file; the bits above them are the file's
     * id (0 for the primary file {@code data/columba.data}). See docs/format/data-file.md, "Page
     * ids and files": a file holds at most 2^28 pages (2 TB), and 128 files fit because an
     * allocation-map entry keeps an extent number in 32 bits.
     */
    public static final int FILE_ID_SHIFT = 28;
    public static final long PAGE_IN_FILE_MASK = (1L << FILE_ID_SHIFT) - 1;
    /** Files a database can have: file ids 0 to 127. */
    public static final int MAX_FILES = 128;

    /** The id of the file holding {@code pageId}. */
    public static int fileOf(long pageId) {
        return (int) (pageId >>> FILE_ID_SHIFT);
    }

    /** The page's number within its file. */
    public static long pageInFile(long pageId) {
        return pageId & PAGE_IN_FILE_MASK;
    }

    /** The page id of page {@code pageInFile} of file {@code fileId}. */
    public static long pageId(int fileId, long pageInFile) {
        return ((long) fileId << FILE_ID_SHIFT) | pageInFile;
    }

    /** The byte offset of the page within its file. */
    public static long offsetOf(long pageId) {
        return pageInFile(pageId) * PAGE_SIZE;
    }
}

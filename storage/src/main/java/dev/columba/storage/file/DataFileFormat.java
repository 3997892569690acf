package dev.columba.storage.file;

import static dev.columba.storage.page.PageFormat.HEADER_SIZE;
import static dev.columba.storage.page.PageFormat.PAGES_PER_EXTENT;
import static dev.columba.storage.page.PageFormat.PAGE_SIZE;

/**
 * Constants of the data file's own structures (file header, global allocation maps, boot page,
 * object allocation maps), shared by reader and writer. Specification: docs/format/data-file.md.
 */
public final class DataFileFormat {
    private DataFileFormat() {
    }

    /** "CLMBDATA" in ASCII, at the start of page 0's body. */
    public static final long MAGIC = 0x41544144424d4c43L;
    public static final int FORMAT_VERSION = 1;
    public static final int MIN_READABLE_VERSION = 1;

    public static final long FILE_HEADER_PAGE = 0;
    public static final long FIRST_GAM_PAGE = 1;
    public static final long BOOT_PAGE = 2;

    // File header body (page 0), after the page header.
    public static final int HEADER_MAGIC_OFFSET = HEADER_SIZE;
    public static final int HEADER_VERSION_OFFSET = HEADER_SIZE + 8;
    public static final int HEADER_PAGE_SIZE_OFFSET = HEADER_SIZE + 12;
    public static final int HEADER_DATABASE_ID_HIGH_OFFSET = HEADER_SIZE + 16;
    public static final int HEADER_DATABASE_ID_LOW_OFFSET = HEADER_SIZE + 24;
    public static final int HEADER_CREATED_MICROS_OFFSET = HEADER_SIZE + 32;

    /** Extents one global allocation map page covers: one bit each in the page body. */
    public static final int EXTENTS_PER_GAM = (PAGE_SIZE - HEADER_SIZE) * 8;

    // Boot page body.
    public static final int BOOT_CATALOG_ROOT_OFFSET = HEADER_SIZE;
    public static final int BOOT_CATALOG_ALLOCATION_OFFSET = HEADER_SIZE + 8;
    public static final int BOOT_NEXT_OBJECT_ID_OFFSET = HEADER_SIZE + 16;

    /** Object allocation map entry: extent number (u32) and the bitmap of its pages in use (u8). */
    public static final int OAM_ENTRY_SIZE = 5;
    public static final int OAM_ENTRIES_PER_PAGE = (PAGE_SIZE - HEADER_SIZE) / OAM_ENTRY_SIZE;

    /** The page holding the global allocation map that covers {@code extent}. */
    public static long gamPageFor(long extent) {
        long interval = extent / EXTENTS_PER_GAM;
        return interval == 0 ? FIRST_GAM_PAGE : interval * EXTENTS_PER_GAM * PAGES_PER_EXTENT;
    }

    /** Whether {@code extent} is reserved for the file's own structures (never given to an object). */
    public static boolean isSystemExtent(long extent) {
        return extent % EXTENTS_PER_GAM == 0;
    }
}

package dev.columba.storage.file;

import static dev.columba.storage.page.PageFormat.HEADER_SIZE;
import static dev.columba.storage.page.PageFormat.PAGES_PER_EXTENT;
import static dev.columba.storage.page.PageFormat.PAGE_SIZE;

import dev.columba.storage.page.PageFormat;

/**
 * Constants of the data file's own structures (file header, global allocation maps, boot page,
 * object allocation maps), shared by reader and writer. Specification: docs/format/data-file.md.
 */
public final class DataFileFormat {
    private DataFileFormat() {
    }

    /** "CLMBDATA" in ASCII, at the start of page 0's body. */
    public static final long MAGIC = 0x41544144424d4c43L;
    /**
     * Version 2 adds the file id to the header (secondary files); the primary file is still written
     * as version 1, whose layout version 2 keeps (its file id is 0).
     */
    public static final int FORMAT_VERSION = 2;
    public static final int PRIMARY_FILE_VERSION = 1;
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
    /** Version 2: the file's id, u32 (0 for the primary file). */
    public static final int HEADER_FILE_ID_OFFSET = HEADER_SIZE + 40;

    /** Extents one global allocation map page covers: one bit each in the page body. */
    public static final int EXTENTS_PER_GAM = (PAGE_SIZE - HEADER_SIZE) * 8;

    // Boot page body.
    public static final int BOOT_CATALOG_ROOT_OFFSET = HEADER_SIZE;
    public static final int BOOT_CATALOG_ALLOCATION_OFFSET = HEADER_SIZE + 8;
    public static final int BOOT_NEXT_OBJECT_ID_OFFSET = HEADER_SIZE + 16;

    /** Object allocation map entry: extent number (u32) and the bitmap of its pages in use (u8). */
    public static final int OAM_ENTRY_SIZE = 5;
    public static final int OAM_ENTRIES_PER_PAGE = (PAGE_SIZE - HEADER_SIZE) / OAM_ENTRY_SIZE;

    /** Bits of an extent number that number the extent within its file; the file id is above them. */
    public static final int EXTENT_FILE_SHIFT = PageFormat.FILE_ID_SHIFT - 3;
    public static final long EXTENT_IN_FILE_MASK = (1L << EXTENT_FILE_SHIFT) - 1;

    static {
        if (1 << (PageFormat.FILE_ID_SHIFT - EXTENT_FILE_SHIFT) != PAGES_PER_EXTENT) {
            throw new AssertionError("extent numbers must be page ids divided by the extent's pages");
        }
    }

    /** The file of an extent (extent numbers are page ids / 8, so they carry the file id too). */
    public static int fileOfExtent(long extent) {
        return (int) (extent >>> EXTENT_FILE_SHIFT);
    }

    /** The extent's number within its file. */
    public static long extentInFile(long extent) {
        return extent & EXTENT_IN_FILE_MASK;
    }

    /** The page holding the global allocation map that covers {@code extent}, in the extent's file. */
    public static long gamPageFor(long extent) {
        long local = extentInFile(extent);
        long interval = local / EXTENTS_PER_GAM;
        long page = interval == 0 ? FIRST_GAM_PAGE : interval * EXTENTS_PER_GAM * PAGES_PER_EXTENT;
        return PageFormat.pageId(fileOfExtent(extent), page);
    }

    /** Whether {@code extent} is reserved for the file's own structures (never given to an object). */
    public static boolean isSystemExtent(long extent) {
        return extentInFile(extent) % EXTENTS_PER_GAM == 0;
    }
}

package dev.columba.storage.page;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;

/** What a data-file page holds; stored in its header (see docs/format/data-file.md). */
public enum PageType {
    /** Never written, or freed. */
    FREE(0),
    /** Page 0 of the data file: magic, format version, page size, database id. */
    FILE_HEADER(1),
    /** Global allocation map: one bit per extent of its interval, set when the extent is in use. */
    GLOBAL_ALLOCATION_MAP(2),
    /** The boot page: where the catalog starts, and database-wide counters. */
    BOOT(3),
    /** Object allocation map: the extents of one object and which of their pages are in use. */
    OBJECT_ALLOCATION_MAP(4),
    BTREE_LEAF(5),
    BTREE_INTERNAL(6),
    HEAP(7),
    /** A piece of a large value stored out of row. */
    OVERFLOW(8);

    private static final PageType[] BY_CODE = values();

    private final int code;

    PageType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /**
     * The type with {@code code}.
     *
     * @throws ColumbaException {@link ErrorCode#PAGE_HEADER_INVALID} for an unknown code
     */
    public static PageType fromCode(int code, long pageId) {
        if (code < 0 || code >= BY_CODE.length || BY_CODE[code].code != code) {
            throw new ColumbaException(ErrorCode.PAGE_HEADER_INVALID, "page " + pageId + " has unknown page type " + code);
        }
        return BY_CODE[code];
    }
}

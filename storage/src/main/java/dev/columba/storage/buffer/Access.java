package dev.columba.storage.buffer;

/**
 * How a page is being read, which tells the eviction policy whether a repeat access means the page
 * is hot. A scan touches each page a few times in quick succession and then never again; such
 * touches must not promote the page, or one large scan would flush the pool (scan resistance).
 */
public enum Access {
    /** Seeks, internal B+tree pages, lookups: a second access is evidence of heat. */
    RANDOM,
    /** Sequential scans of leaves or heap pages. */
    SCAN,
    /** Overflow pages of large values: counted in the lob counters, never promoted. */
    LOB
}

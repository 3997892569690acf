package dev.columba.columnstore.build;

/** Why a compressed rowgroup holds fewer rows than the maximum (SQL Server's trim_reason). */
public enum TrimReason {
    /** Full, or short only because rows were deleted since. */
    NO_TRIM,
    /** The bulk insert that built it had fewer rows left. */
    BULKLOAD,
    /** Compressed by a reorganize before it was full. */
    REORG,
    /** A dictionary would have outgrown its cap (dictionary_overflow = trim). */
    DICTIONARY_SIZE,
    /** The build ran out of its memory budget. */
    MEMORY_LIMITATION,
    /** The last rowgroup of a rebuild or index build. */
    RESIDUAL_ROW_GROUP
}

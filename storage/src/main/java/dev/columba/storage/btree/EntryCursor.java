package dev.columba.storage.btree;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Entries of a B+tree visited by a scan, in key order ({@link Cursor}) or allocation order
 * ({@link AllocationOrderCursor}). The current entry's bytes live in {@link #page()} and are valid
 * until the next {@link #next()} or {@link #close()}.
 */
public sealed interface EntryCursor extends AutoCloseable permits Cursor, AllocationOrderCursor {
    boolean next();

    MemorySegment page();

    int keyOffset();

    int keyLength();

    int valueOffset();

    int valueLength();

    /** A copy of the current key. */
    default byte[] key() {
        return page().asSlice(keyOffset(), keyLength()).toArray(ValueLayout.JAVA_BYTE);
    }

    /** A copy of the current value. */
    default byte[] value() {
        return page().asSlice(valueOffset(), valueLength()).toArray(ValueLayout.JAVA_BYTE);
    }

    @Override
    void close();
}

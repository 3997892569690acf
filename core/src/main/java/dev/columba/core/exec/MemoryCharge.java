package dev.columba.core.exec;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import org.apache.arrow.memory.AllocationReservation;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Charges heap memory that grows with the data (hash table slots, sort indexes, per-group
 * accumulators) to the query's allocator, so the memory limit covers it as it covers Arrow
 * buffers. Charges only grow, in doubling steps (as the arrays they stand for do); closing
 * returns them all. Going over the limit is {@link ErrorCode#OUT_OF_MEMORY}, naming what grew.
 */
final class MemoryCharge implements AutoCloseable {
    private final BufferAllocator allocator;
    private final String what;
    private AllocationReservation reservation;
    private long charged;

    MemoryCharge(BufferAllocator allocator, String what) {
        this.allocator = allocator;
        this.what = what;
    }

    /** Makes sure at least {@code bytes} in total are charged. */
    void ensure(long bytes) {
        if (bytes <= charged) {
            return;
        }
        if (reservation == null) {
            reservation = allocator.newReservation();
        }
        long step = Math.max(bytes - charged, Math.max(charged, 4096));
        if (!reservation.add(step)) {
            throw new ColumbaException(ErrorCode.OUT_OF_MEMORY, "not enough memory for " + what + ": " + bytes
                    + " bytes would pass the query's limit of " + effectiveLimit(allocator) + " bytes ("
                    + allocator.getAllocatedMemory() + " in use)");
        }
        charged += step;
    }

    /**
     * The limit that binds {@code allocator}: the smallest along its chain of parents. An
     * operator's own allocator is unlimited; the query's, above it, holds the limit.
     */
    static long effectiveLimit(BufferAllocator allocator) {
        long limit = Long.MAX_VALUE;
        for (BufferAllocator current = allocator; current != null; current = current.getParentAllocator()) {
            limit = Math.min(limit, current.getLimit());
        }
        return limit;
    }

    @Override
    public void close() {
        if (reservation != null) {
            reservation.close();
            reservation = null;
            charged = 0;
        }
    }
}

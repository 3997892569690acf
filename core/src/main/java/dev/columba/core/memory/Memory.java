package dev.columba.core.memory;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.memory.RootAllocator;

/**
 * The root of Columba's tree of Arrow allocators. Each query, scan or build takes a named child
 * with a limit; closing a child checks it for leaks (Arrow reports outstanding buffers), and going
 * over a limit is a {@link ColumbaException} with {@link ErrorCode#OUT_OF_MEMORY}, never an
 * {@code OutOfMemoryError}.
 *
 * <p>Children do not hang off the root directly but off one of a few <em>stripes</em>, unlimited
 * allocators between the root and them, picked by the calling thread. An Arrow allocator keeps its
 * children in a synchronized map, so a child made and closed per statement on the root itself made
 * the root's monitor a lock every statement of every session took twice; with stripes, concurrent
 * sessions mostly take different monitors. The root's limit still covers everything below it.
 */
public final class Memory implements AutoCloseable {
    /** A power of two, so that a thread's stripe is its id's low bits. */
    private static final int STRIPES = 16;

    private final RootAllocator root;
    private final BufferAllocator[] stripes = new BufferAllocator[STRIPES];

    public Memory(long limitBytes) {
        this.root = new RootAllocator(limitBytes);
        for (int stripe = 0; stripe < STRIPES; stripe++) {
            stripes[stripe] = root.newChildAllocator("stripe " + stripe, 0, Long.MAX_VALUE);
        }
    }

    /** A child allocator named {@code name} that may hold at most {@code limitBytes}. */
    public BufferAllocator child(String name, long limitBytes) {
        BufferAllocator stripe = stripes[(int) Thread.currentThread().threadId() & (STRIPES - 1)];
        return stripe.newChildAllocator(name, 0, limitBytes);
    }

    /** Bytes currently allocated under the root. */
    public long allocatedBytes() {
        return root.getAllocatedMemory();
    }

    /** Turns Arrow's allocation failure into Columba's error, naming what was being allocated. */
    public static ColumbaException outOfMemory(String what, OutOfMemoryException cause) {
        return new ColumbaException(ErrorCode.OUT_OF_MEMORY, "not enough memory for " + what + ": " + cause.getMessage(),
                cause);
    }

    /**
     * Closes the stripes and the root; Arrow throws if a child is still open or memory is still
     * allocated (a leak), naming it. Every stripe is closed even if one throws.
     */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (BufferAllocator stripe : stripes) {
            try {
                stripe.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        try {
            root.close();
        } catch (RuntimeException e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}

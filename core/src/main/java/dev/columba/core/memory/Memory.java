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
 */
public final class Memory implements AutoCloseable {
    private final RootAllocator root;

    public Memory(long limitBytes) {
        this.root = new RootAllocator(limitBytes);
    }

    /** A child allocator named {@code name} that may hold at most {@code limitBytes}. */
    public BufferAllocator child(String name, long limitBytes) {
        return root.newChildAllocator(name, 0, limitBytes);
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

    @Override
    public void close() {
        root.close();
    }
}

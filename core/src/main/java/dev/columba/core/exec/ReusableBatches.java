package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

/**
 * Small output batches of leaf operators ({@link VectorSourceOperator}) kept from one statement of
 * a session to the next of the same shape. A point lookup returns one row; making its batch (an
 * Arrow root, an allocation per buffer) and freeing it again was a quarter of a prepared point
 * select. A leaf takes a kept batch of its schema when it opens and hands it back when it closes;
 * only batches of fixed- and variable-width vectors of at most {@value #MAX_BYTES} bytes of
 * buffers, without dictionary codes, are kept, at most {@value #MAX_BATCHES} of them.
 *
 * <p>The kept batches live in one allocator of their own (made on first use, unlimited): they are
 * not charged to a statement's memory limit, and a statement's allocator closes without them. The
 * owner (a session) closes this, which frees them. Only the statement's own thread uses it (the
 * workers of a parallel plan get none); the methods are synchronized all the same.
 */
public final class ReusableBatches implements AutoCloseable {
    static final int MAX_BATCHES = 8;
    static final long MAX_BYTES = 64 * 1024;

    private final Supplier<BufferAllocator> allocatorFactory;
    private final List<Kept> kept = new ArrayList<>();
    private BufferAllocator allocator;
    private boolean closed;

    private record Kept(TableSchema schema, Batch batch) {
    }

    /** @param allocatorFactory makes the allocator of the kept batches, when the first one is made */
    public ReusableBatches(Supplier<BufferAllocator> allocatorFactory) {
        this.allocatorFactory = Objects.requireNonNull(allocatorFactory, "allocatorFactory");
    }

    /** The allocator a batch that may be kept must be made in. */
    public synchronized BufferAllocator allocator() {
        if (closed) {
            throw new IllegalStateException("the reusable batches are closed");
        }
        if (allocator == null) {
            allocator = allocatorFactory.get();
        }
        return allocator;
    }

    /** A kept batch of exactly {@code schema}, now the caller's, or null. */
    public synchronized Batch take(TableSchema schema) {
        for (int index = kept.size() - 1; index >= 0; index--) {
            if (kept.get(index).schema().equals(schema)) {
                return kept.remove(index).batch();
            }
        }
        return null;
    }

    /**
     * Keeps {@code batch} (made in {@link #allocator()}) for a later {@link #take} of
     * {@code schema}: true when kept, false when the caller must close it (too large, holding
     * dictionary codes, made elsewhere, or enough kept already).
     */
    public synchronized boolean keep(TableSchema schema, Batch batch) {
        if (closed || allocator == null || kept.size() >= MAX_BATCHES || !batch.ownsVectors()) {
            return false;
        }
        long bytes = 0;
        for (int column = 0; column < batch.columnCount(); column++) {
            FieldVector vector = batch.column(column);
            if (batch.codes(column) != null || vector.getAllocator() != allocator) {
                return false;
            }
            if (vector instanceof BaseFixedWidthVector fixed) {
                bytes += fixed.getValidityBuffer().capacity() + fixed.getDataBuffer().capacity();
            } else if (vector instanceof BaseVariableWidthVector variable) {
                bytes += variable.getValidityBuffer().capacity() + variable.getOffsetBuffer().capacity()
                        + variable.getDataBuffer().capacity();
            } else {
                return false;
            }
        }
        if (bytes > MAX_BYTES) {
            return false;
        }
        batch.setRowCount(0);
        kept.add(new Kept(schema, batch));
        return true;
    }

    /** Batches kept now (for tests). */
    public synchronized int size() {
        return kept.size();
    }

    /** Frees the kept batches and their allocator; later {@link #keep} calls keep nothing. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            for (Kept entry : kept) {
                entry.batch().close();
            }
            kept.clear();
        } finally {
            if (allocator != null) {
                allocator.close();
            }
        }
    }
}

package dev.columba.core.expr;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.type.SqlType;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

/**
 * A compiled expression node. {@link #evaluate} computes the node's value at the given positions
 * of an input batch into a vector aligned with the batch (value {@code i} belongs to input row
 * {@code i}); positions not asked for hold anything. The returned vector belongs to the kernel
 * (or, for a column reference, to the batch) and is valid until the kernel's next evaluation or
 * its close. Output vectors are allocated on first use and reused; their loops read and write
 * Arrow buffers directly and allocate nothing.
 */
abstract class Kernel implements AutoCloseable {
    final SqlType type;
    final List<Kernel> children;
    private final BufferAllocator allocator;
    private FieldVector output;

    Kernel(SqlType type, List<Kernel> children, BufferAllocator allocator) {
        this.type = type;
        this.children = List.copyOf(children);
        this.allocator = allocator;
    }

    /** The node's values at {@code rows} of {@code input}, in a vector of {@code input.rowCount()} values. */
    abstract FieldVector evaluate(Batch input, Rows rows);

    /** BATCH unless this node or a descendant runs row by row. */
    ExecutionMode mode() {
        ExecutionMode mode = ExecutionMode.BATCH;
        for (Kernel child : children) {
            mode = mode.and(child.mode());
        }
        return mode;
    }

    /**
     * The kernel's output vector, able to hold {@code rowCount} values without growing (a
     * variable-width one is emptied so it can be written from position 0 in ascending order).
     */
    final FieldVector output(int rowCount) {
        if (output == null) {
            output = VectorValues.newVector(getClass().getSimpleName(), type, allocator);
        }
        if (output.getValueCapacity() < rowCount) {
            output.setInitialCapacity(Math.max(rowCount, 16));
            output.allocateNew();
        } else if (output instanceof BaseVariableWidthVector variableWidth) {
            variableWidth.setLastSet(-1);
        }
        return output;
    }

    /** Finishes an evaluation: the output holds {@code rowCount} values. */
    final FieldVector finish(FieldVector vector, int rowCount) {
        vector.setValueCount(rowCount);
        return vector;
    }

    @Override
    public void close() {
        for (Kernel child : children) {
            child.close();
        }
        if (output != null) {
            output.close();
            output = null;
        }
    }
}

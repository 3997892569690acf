package dev.columba.core.expr;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.type.SqlType;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/** Kernels without computation: input columns, constants, and values computed once and shared. */
final class LeafKernels {
    private LeafKernels() {
    }

    /** An input column: the batch's own vector, no copy. */
    static final class ColumnKernel extends Kernel {
        private final int index;

        ColumnKernel(int index, SqlType type) {
            super(type, List.of(), null);
            this.index = index;
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            return input.column(index);
        }
    }

    /**
     * A constant. Its vector is filled once for as many rows as the largest batch seen so far and
     * reused unchanged, so a comparison with a constant reads two vectors without refilling one.
     */
    static final class LiteralKernel extends Kernel {
        private final Object value;
        private final BufferAllocator allocator;
        private FieldVector constant;
        private int filled;

        LiteralKernel(Object value, SqlType type, BufferAllocator allocator) {
            super(type, List.of(), allocator);
            this.value = value;
            this.allocator = allocator;
        }

        Object value() {
            return value;
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            int rowCount = input.rowCount();
            if (constant == null) {
                constant = VectorValues.newVector("literal", type, allocator);
            }
            if (filled < rowCount) {
                int size = Math.max(rowCount, 16);
                constant.clear();
                constant.setInitialCapacity(size);
                constant.allocateNew();
                for (int row = 0; row < size; row++) {
                    VectorValues.set(constant, row, type, value);
                }
                constant.setValueCount(size);
                filled = size;
            }
            return constant;
        }

        @Override
        public void close() {
            super.close();
            if (constant != null) {
                constant.close();
                constant = null;
            }
        }
    }

    /**
     * A value computed once per evaluation by its owner and read by several parents (the value
     * of an IN list or BETWEEN compared with each element or bound).
     */
    static final class HeldKernel extends Kernel {
        private FieldVector held;

        HeldKernel(SqlType type) {
            super(type, List.of(), null);
        }

        void hold(FieldVector vector) {
            held = vector;
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            return held;
        }
    }
}

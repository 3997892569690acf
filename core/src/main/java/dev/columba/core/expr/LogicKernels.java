package dev.columba.core.expr;

import dev.columba.core.batch.Batch;
import dev.columba.core.type.SqlType;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/** Three-valued logic over BOOLEAN vectors: AND, OR, NOT and the IS tests. */
final class LogicKernels {
    private LogicKernels() {
    }

    /**
     * AND (or OR): each operand is evaluated only for the rows its predecessors left undecided
     * (not yet FALSE for AND, not yet TRUE for OR), so later operands see ever fewer rows and
     * never rows whose outcome is settled.
     */
    static final class JunctionKernel extends Kernel {
        private final boolean isAnd;
        private final Rows[] undecided = {new Rows(0), new Rows(0)};

        JunctionKernel(boolean isAnd, List<Kernel> operands, BufferAllocator allocator) {
            super(SqlType.BOOLEAN, operands, allocator);
            this.isAnd = isAnd;
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            FieldVector out = output(input.rowCount());
            ArrowBuf outValues = out.getDataBuffer();
            ArrowBuf outValidity = out.getValidityBuffer();
            boolean identity = isAnd;
            for (int index = 0; index < rows.count; index++) {
                int row = rows.positions[index];
                Bits.set(outValues, row, identity);
                Bits.set(outValidity, row, true);
            }
            Rows pending = rows;
            int next = 0;
            for (Kernel operand : children) {
                if (pending.count == 0) {
                    break;
                }
                FieldVector values = operand.evaluate(input, pending);
                ArrowBuf valueBits = values.getDataBuffer();
                ArrowBuf validity = values.getValidityBuffer();
                Rows stillPending = undecided[next];
                next ^= 1;
                stillPending.clear(pending.count);
                for (int index = 0; index < pending.count; index++) {
                    int row = pending.positions[index];
                    if (!Bits.get(validity, row)) {
                        Bits.set(outValidity, row, false);
                        stillPending.add(row);
                    } else if (Bits.get(valueBits, row) != identity) {
                        Bits.set(outValues, row, !identity);
                        Bits.set(outValidity, row, true);
                    } else {
                        stillPending.add(row);
                    }
                }
                pending = stillPending;
            }
            return finish(out, input.rowCount());
        }
    }

    static final class NotKernel extends Kernel {
        NotKernel(Kernel operand, BufferAllocator allocator) {
            super(SqlType.BOOLEAN, List.of(operand), allocator);
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            FieldVector values = children.getFirst().evaluate(input, rows);
            FieldVector out = output(input.rowCount());
            ArrowBuf valueBits = values.getDataBuffer();
            ArrowBuf validity = values.getValidityBuffer();
            ArrowBuf outValues = out.getDataBuffer();
            ArrowBuf outValidity = out.getValidityBuffer();
            for (int index = 0; index < rows.count; index++) {
                int row = rows.positions[index];
                boolean valid = Bits.get(validity, row);
                Bits.set(outValidity, row, valid);
                Bits.set(outValues, row, valid && !Bits.get(valueBits, row));
            }
            return finish(out, input.rowCount());
        }
    }

    /** IS [NOT] NULL on any operand, IS [NOT] TRUE/FALSE on a BOOLEAN; never NULL. */
    static final class IsKernel extends Kernel {
        private final IsCondition condition;

        IsKernel(Kernel operand, IsCondition condition, BufferAllocator allocator) {
            super(SqlType.BOOLEAN, List.of(operand), allocator);
            this.condition = condition;
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            FieldVector values = children.getFirst().evaluate(input, rows);
            FieldVector out = output(input.rowCount());
            ArrowBuf validity = values.getValidityBuffer();
            boolean testsTruth = condition != IsCondition.NULL && condition != IsCondition.NOT_NULL;
            ArrowBuf valueBits = testsTruth ? values.getDataBuffer() : null;
            ArrowBuf outValues = out.getDataBuffer();
            ArrowBuf outValidity = out.getValidityBuffer();
            for (int index = 0; index < rows.count; index++) {
                int row = rows.positions[index];
                boolean valid = Bits.get(validity, row);
                boolean result = switch (condition) {
                    case NULL -> !valid;
                    case NOT_NULL -> valid;
                    case TRUE -> valid && Bits.get(valueBits, row);
                    case NOT_TRUE -> !valid || !Bits.get(valueBits, row);
                    case FALSE -> valid && !Bits.get(valueBits, row);
                    case NOT_FALSE -> !valid || Bits.get(valueBits, row);
                };
                Bits.set(outValues, row, result);
                Bits.set(outValidity, row, true);
            }
            return finish(out, input.rowCount());
        }
    }
}

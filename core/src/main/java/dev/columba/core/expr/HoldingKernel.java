package dev.columba.core.expr;

import dev.columba.core.batch.Batch;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * IN lists and BETWEEN as compositions of comparisons: the operands are evaluated once, for all
 * rows (as the reference evaluator evaluates them all), and held; then a logic kernel built from
 * comparisons of the held values computes the result ({@code v = e1 OR v = e2 ...} has exactly
 * IN's three-valued outcome, {@code v >= low AND v <= high} BETWEEN's).
 */
final class HoldingKernel extends Kernel {
    private final List<Kernel> operands;
    private final List<LeafKernels.HeldKernel> held;
    private final Kernel logic;

    HoldingKernel(List<Kernel> operands, List<LeafKernels.HeldKernel> held, Kernel logic, BufferAllocator allocator) {
        super(logic.type, concatenate(operands, logic), allocator);
        this.operands = List.copyOf(operands);
        this.held = List.copyOf(held);
        this.logic = logic;
    }

    private static List<Kernel> concatenate(List<Kernel> operands, Kernel logic) {
        List<Kernel> all = new ArrayList<>(operands);
        all.add(logic);
        return all;
    }

    @Override
    FieldVector evaluate(Batch input, Rows rows) {
        for (int operand = 0; operand < operands.size(); operand++) {
            held.get(operand).hold(operands.get(operand).evaluate(input, rows));
        }
        return logic.evaluate(input, rows);
    }
}

package dev.columba.core.expr;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * The row-at-a-time fallback for a node without a vectorized kernel: its operands are evaluated
 * as vectors (by their own kernels), then for each row their values are read as Java objects,
 * the node is {@linkplain Evaluator#apply applied} by the reference evaluator, and the result is
 * written back. It allocates per row and reports {@link ExecutionMode#ROW}.
 */
final class RowKernel extends Kernel {
    private final Expr node;
    private final EvaluationContext context;
    private final Object[] arguments;

    RowKernel(Expr node, List<Kernel> operands, EvaluationContext context, BufferAllocator allocator) {
        super(node.type(), operands, allocator);
        this.node = node;
        this.context = context;
        this.arguments = new Object[operands.size()];
    }

    @Override
    ExecutionMode mode() {
        return ExecutionMode.ROW;
    }

    @Override
    FieldVector evaluate(Batch input, Rows rows) {
        FieldVector[] operands = new FieldVector[children.size()];
        for (int operand = 0; operand < operands.length; operand++) {
            operands[operand] = children.get(operand).evaluate(input, rows);
        }
        FieldVector out = output(input.rowCount());
        for (int index = 0; index < rows.count; index++) {
            int row = rows.positions[index];
            for (int operand = 0; operand < operands.length; operand++) {
                arguments[operand] = VectorValues.get(operands[operand], row, children.get(operand).type);
            }
            VectorValues.set(out, row, type, Evaluator.apply(node, arguments, context));
        }
        return finish(out, input.rowCount());
    }
}

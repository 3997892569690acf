package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorCopy;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.CompiledExpression;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.expr.Expr;
import dev.columba.core.expr.ExpressionCompiler;
import dev.columba.core.type.SqlType;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/**
 * Keeps the rows for which a BOOLEAN predicate is TRUE (not FALSE, not NULL).
 *
 * <p>Selecting versus compacting: when at least {@link #DENSE_FRACTION one in eight} of an input
 * batch's rows pass, the filter returns a {@linkplain Batch#view view} of the input's vectors with
 * a selection vector, copying nothing. When fewer pass, copying the survivors is cheap, and it
 * gathers them from successive input batches into a batch of its own until that holds half a
 * batch, so operators above see full batches instead of a stream of nearly empty ones.
 *
 * <p>Memory: the predicate's output vector, one compacted batch, and position arrays of a batch's
 * size. A returned batch is valid until the next {@code next()} (a view also only as long as the
 * input's batch, which the filter does not advance before then).
 */
public final class FilterOperator extends BaseOperator {
    /** Below this fraction of passing rows the filter compacts instead of selecting. */
    static final int DENSE_FRACTION = 8;

    private final Operator input;
    private final Expr predicate;
    private CompiledExpression compiled;
    private Batch compacted;
    private Batch view;
    private Batch pending;
    private int pendingCount;
    private int[] positions = new int[0];

    public FilterOperator(Operator input, Expr predicate) {
        super(input.schema(), List.of(input));
        this.input = input;
        this.predicate = Objects.requireNonNull(predicate, "predicate");
        if (!(predicate.type() instanceof SqlType.BooleanType)) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, "a filter needs a BOOLEAN predicate, got " + predicate.type().sqlName());
        }
    }

    @Override
    public ExecutionMode mode() {
        return ExpressionCompiler.mode(predicate);
    }

    @Override
    void opened() {
        compiled = ExpressionCompiler.compile(predicate, input.schema(), context.evaluation(), allocator);
    }

    @Override
    Batch produce() {
        int compactedRows = 0;
        if (compacted != null) {
            Vectors.rewind(compacted);
        }
        while (true) {
            if (pending == null && !advance()) {
                break;
            }
            boolean dense = (long) pendingCount * DENSE_FRACTION >= pending.rowCount();
            if (dense || compactedRows + pendingCount > context.batchSize()) {
                if (compactedRows > 0) {
                    break;
                }
                if (dense) {
                    return selectPending();
                }
            }
            compactedRows = copyPending(compactedRows);
            if (compactedRows >= context.batchSize() / 2) {
                break;
            }
        }
        if (compactedRows == 0) {
            return null;
        }
        compacted.setRowCount(compactedRows);
        return compacted;
    }

    /** Pulls input batches until one has passing rows; false at the end of the input. */
    private boolean advance() {
        while (true) {
            Batch batch = input.next();
            if (batch == null) {
                return false;
            }
            FieldVector result = compiled.evaluate(batch);
            ArrowBuf values = result.getDataBuffer();
            ArrowBuf validity = result.getValidityBuffer();
            int live = batch.selectedCount();
            if (positions.length < live) {
                positions = new int[Math.max(live, positions.length * 2)];
            }
            int count = 0;
            for (int index = 0; index < live; index++) {
                int row = batch.selectedRow(index);
                if (BitVectorHelper.get(validity, row) != 0 && BitVectorHelper.get(values, row) != 0) {
                    positions[count++] = row;
                }
            }
            if (count > 0) {
                pending = batch;
                pendingCount = count;
                return true;
            }
        }
    }

    private Batch selectPending() {
        if (view != null) {
            view.close();
        }
        List<FieldVector> vectors = pending.vectors();
        view = Batch.view(vectors, pending.rowCount());
        view.select(positions, pendingCount);
        view.inheritCodes(pending);
        pending = null;
        return view;
    }

    private int copyPending(int compactedRows) {
        if (compacted == null) {
            compacted = Batch.create(schema(), allocator);
        }
        for (int columnIndex = 0; columnIndex < schema().size(); columnIndex++) {
            VectorCopy.gather(pending.column(columnIndex), positions, pendingCount, compacted.column(columnIndex), compactedRows);
        }
        pending = null;
        return compactedRows + pendingCount;
    }

    @Override
    void release() {
        if (compiled != null) {
            compiled.close();
        }
        if (compacted != null) {
            compacted.close();
        }
    }
}

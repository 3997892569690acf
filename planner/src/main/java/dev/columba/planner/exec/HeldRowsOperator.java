package dev.columba.planner.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.exec.ExecutionContext;
import dev.columba.core.exec.Operator;
import dev.columba.core.exec.ValuesOperator;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.schema.TableSchema;
import java.util.List;

/**
 * Rows the statement already holds as Java values (an {@code executeBatch}'s parameter sets), made
 * canonical for their columns exactly as {@link ValuesOperator} makes them. {@link TableModifyOperator}
 * takes them through {@link #rows()}, one Java row at a time as it inserts, so they never go into
 * Arrow vectors and back (a third of a batch insert's CPU went to that round trip); any other
 * consumer reads batches, from a {@link ValuesOperator} over the same rows made when first asked.
 */
public final class HeldRowsOperator implements Operator {
    private final TableSchema schema;
    private final List<Object[]> rows;
    private ExecutionContext context;
    private ValuesOperator batches;

    /**
     * @param rows values in their Java representation, null for NULL; each array is kept (the
     *     caller hands them over) and its values replaced by their canonical form
     * @throws ColumbaException {@link ErrorCode#WRONG_TYPE} or {@link ErrorCode#NULL_NOT_ALLOWED}
     *     naming the bad value, as {@link ValuesOperator} does
     */
    public HeldRowsOperator(TableSchema schema, List<Object[]> rows) {
        this.schema = schema;
        for (int rowIndex = 0; rowIndex < rows.size(); rowIndex++) {
            Object[] row = rows.get(rowIndex);
            ValuesOperator.canonicalize(schema, row, rowIndex, row);
        }
        this.rows = rows;
    }

    /** The rows, canonical for {@link #schema()}; the consumer must not change the arrays. */
    public List<Object[]> rows() {
        return rows;
    }

    @Override
    public TableSchema schema() {
        return schema;
    }

    @Override
    public ExecutionMode mode() {
        return ExecutionMode.BATCH;
    }

    @Override
    public void open(ExecutionContext executionContext) {
        context = executionContext;
    }

    @Override
    public Batch next() {
        if (batches == null) {
            if (context == null) {
                throw new ColumbaException(ErrorCode.INTERNAL, "rows read before the operator was opened");
            }
            batches = new ValuesOperator(schema, rows);
            batches.open(context);
        }
        return batches.next();
    }

    @Override
    public void close() {
        if (batches != null) {
            batches.close();
            batches = null;
        }
    }
}

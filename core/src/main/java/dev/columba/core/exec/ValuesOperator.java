package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.Values;
import java.util.ArrayList;
import java.util.List;

/**
 * Literal rows ({@code VALUES (...), (...)}), checked against the schema when constructed.
 *
 * <p>Memory: one batch of at most the batch size, reused; the rows themselves live on the heap
 * (they come from the SQL text). Each returned batch is valid until the next {@code next()}.
 */
public final class ValuesOperator extends BaseOperator {
    private final List<Object[]> rows;
    private Batch output;
    private int emitted;

    /**
     * @param rows values in their Java representation (see {@link dev.columba.core.type.SqlType}), null for NULL
     * @throws ColumbaException {@link ErrorCode#WRONG_TYPE} or {@link ErrorCode#NULL_NOT_ALLOWED} naming the bad value
     */
    public ValuesOperator(TableSchema schema, List<Object[]> rows) {
        super(schema, List.of());
        List<Object[]> checked = new ArrayList<>(rows.size());
        for (int rowIndex = 0; rowIndex < rows.size(); rowIndex++) {
            Object[] row = rows.get(rowIndex);
            Object[] canonical = new Object[row.length];
            canonicalize(schema, row, rowIndex, canonical);
            checked.add(canonical);
        }
        this.rows = List.copyOf(checked);
    }

    /**
     * Writes row {@code rowIndex} made canonical for {@code schema} into {@code canonical} (of the
     * row's length, empty or {@code row} itself): what this operator keeps of each row, and what a
     * consumer taking rows as Java values must see.
     *
     * @throws ColumbaException {@link ErrorCode#WRONG_TYPE} or {@link ErrorCode#NULL_NOT_ALLOWED} naming the bad value
     */
    public static void canonicalize(TableSchema schema, Object[] row, int rowIndex, Object[] canonical) {
        if (row.length != schema.size()) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, "row " + rowIndex + " has " + row.length
                    + " values for " + schema.size() + " columns");
        }
        for (int columnIndex = 0; columnIndex < row.length; columnIndex++) {
            Column column = schema.column(columnIndex);
            if (row[columnIndex] == null) {
                if (!column.nullable()) {
                    throw new ColumbaException(ErrorCode.NULL_NOT_ALLOWED, "row " + rowIndex + ": column "
                            + column.name() + " does not admit NULL");
                }
                continue;
            }
            try {
                canonical[columnIndex] = Values.canonical(column.type(), row[columnIndex]);
            } catch (IllegalArgumentException e) {
                throw new ColumbaException(ErrorCode.WRONG_TYPE, "row " + rowIndex + ", column " + column.name()
                        + ": " + e.getMessage(), e);
            }
        }
    }

    @Override
    public ExecutionMode mode() {
        return ExecutionMode.BATCH;
    }

    @Override
    void opened() {
        output = Batch.create(schema(), allocator);
    }

    @Override
    Batch produce() {
        if (emitted >= rows.size()) {
            return null;
        }
        int count = Math.min(context.batchSize(), rows.size() - emitted);
        Vectors.rewind(output);
        for (int columnIndex = 0; columnIndex < schema().size(); columnIndex++) {
            for (int row = 0; row < count; row++) {
                VectorValues.set(output.column(columnIndex), row, schema().column(columnIndex).type(), rows.get(emitted + row)[columnIndex]);
            }
        }
        emitted += count;
        output.setRowCount(count);
        return output;
    }

    @Override
    void release() {
        if (output != null) {
            output.close();
        }
    }
}

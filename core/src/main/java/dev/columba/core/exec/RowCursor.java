package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.schema.TableSchema;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * A forward-only cursor over the rows an operator tree produces, one at a time: what a JDBC
 * {@code ResultSet} sits on. It opens the tree on construction and closes it on {@link #close}.
 * Getters read the current row; see {@link BatchRows} for their conversions and NULL handling.
 */
public final class RowCursor implements AutoCloseable {
    private final Operator root;
    private BatchRows rows;
    private int row = -1;
    private boolean ended;

    /** Opens {@code root} in {@code context}; the cursor owns it from here on. */
    public RowCursor(Operator root, ExecutionContext context) {
        this.root = root;
        try {
            root.open(context);
        } catch (RuntimeException e) {
            try {
                root.close();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    public TableSchema schema() {
        return root.schema();
    }

    /** Moves to the next row; false at the end. */
    public boolean next() {
        if (ended) {
            return false;
        }
        if (rows != null && row + 1 < rows.rowCount()) {
            row++;
            return true;
        }
        Batch batch = root.next();
        if (batch == null) {
            ended = true;
            rows = null;
            return false;
        }
        rows = new BatchRows(batch, root.schema());
        row = 0;
        return true;
    }

    private BatchRows current() {
        if (rows == null) {
            throw new IllegalStateException(ended ? "the cursor is past the last row" : "call next() first");
        }
        return rows;
    }

    public boolean isNull(int column) {
        return current().isNull(row, column);
    }

    public boolean getBoolean(int column) {
        return current().getBoolean(row, column);
    }

    public int getInt(int column) {
        return current().getInt(row, column);
    }

    public long getLong(int column) {
        return current().getLong(row, column);
    }

    public double getDouble(int column) {
        return current().getDouble(row, column);
    }

    public BigDecimal getDecimal(int column) {
        return current().getDecimal(row, column);
    }

    public String getString(int column) {
        return current().getString(row, column);
    }

    public LocalDate getDate(int column) {
        return current().getDate(row, column);
    }

    public LocalDateTime getTimestamp(int column) {
        return current().getTimestamp(row, column);
    }

    public Object getObject(int column) {
        return current().getObject(row, column);
    }

    /** Closes the operator tree, releasing all its memory. */
    @Override
    public void close() {
        rows = null;
        root.close();
    }
}

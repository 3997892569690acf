package dev.columba.planner.session;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.settings.StandardSettings;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A point lookup's result: its rows (none or one) already read from the leaf, its locks released.
 * As every query, the statement finishes when the result is closed (or its batch reading ends):
 * then its CPU and elapsed times are taken and its messages made, so STATISTICS TIME covers the
 * reading of the row as it does for an operator tree's result. A reader of batches gets the rows
 * as one batch, made on demand from the statement's allocator; JDBC reads {@link #rowsRead()}.
 */
final class LookupResult implements StatementResult.RowsRead {
    private final Session session;
    private final TableSchema schema;
    private final java.util.BitSet identityColumns;
    private final List<String> columnLabels;
    private final List<Object[]> rows;
    private final QueryFinish finish;
    /** Whether {@link #next()} handed out the rows' batch. */
    private boolean batchGiven;
    private BufferAllocator allocator;
    private Batch batch;

    LookupResult(Session session, TableSchema schema, java.util.BitSet identityColumns, List<String> columnLabels,
                 List<Object[]> rows, QueryFinish finish) {
        this.session = session;
        this.schema = schema;
        this.identityColumns = identityColumns;
        this.columnLabels = columnLabels;
        this.rows = rows;
        this.finish = finish;
    }

    @Override
    public TableSchema schema() {
        return schema;
    }

    @Override
    public java.util.BitSet identityColumns() {
        return (java.util.BitSet) identityColumns.clone();
    }

    @Override
    public List<String> columnLabels() {
        return columnLabels;
    }

    @Override
    public List<Object[]> rowsRead() {
        return rows;
    }

    @Override
    public Batch next() {
        if (finish.finished()) {
            return null;
        }
        if (batchGiven || rows.isEmpty()) {
            close();
            return null;
        }
        batchGiven = true;
        try {
            allocator = session.statementAllocator(finish.query().settings().get(StandardSettings.QUERY_MEMORY_LIMIT));
            batch = Batch.create(schema, allocator);
            for (int row = 0; row < rows.size(); row++) {
                Object[] values = rows.get(row);
                for (int column = 0; column < values.length; column++) {
                    VectorValues.set(batch.column(column), row, schema.column(column).type(), values[column]);
                }
            }
            batch.setRowCount(rows.size());
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        return batch;
    }

    @Override
    public List<String> messages() {
        return finish.messages();
    }

    @Override
    public StatementStatistics statistics() {
        return finish.statistics();
    }

    @Override
    public void close() {
        if (finish.finished()) {
            return;
        }
        try {
            if (batch != null) {
                batch.close();
            }
        } finally {
            if (allocator != null) {
                session.releaseStatementAllocator(allocator);
            }
            finish.finish();
        }
    }
}

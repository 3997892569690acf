package dev.columba.jdbc;

import dev.columba.core.batch.Batch;
import dev.columba.core.exec.BatchRows;
import dev.columba.core.schema.TableSchema;
import dev.columba.planner.session.StatementResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows under a result set, one current row at a time: a running query's batches, or rows held
 * on the heap (metadata, and a query's unread rows once buffered). Values are in Columba's Java
 * representation (see {@link dev.columba.core.type.SqlType}); {@link #longValue} and
 * {@link #doubleValue} read numbers without boxing.
 */
sealed interface RowSource permits RowSource.Batches, RowSource.Heap {

    TableSchema schema();

    /** Moves to the next row; false at the end. A query's failure surfaces here as a ColumbaException. */
    boolean next();

    boolean isNull(int column);

    /** The current row's value, or null. */
    Object value(int column);

    /** An INT or BIGINT column's non-null value. */
    long longValue(int column);

    /** A numeric column's non-null value. */
    double doubleValue(int column);

    /** Releases what the rows hold; for a query, finishes the statement. */
    void close();

    /**
     * A query's rows, read batch by batch. The current batch is valid until the next call to
     * {@link StatementResult.Rows#next()}, which only {@link #next()} makes.
     */
    final class Batches implements RowSource {
        private final StatementResult.Rows rows;
        private final TableSchema schema;
        /**
         * A point lookup's rows, read as Java values without a batch ({@link StatementResult.RowsRead});
         * null for a query read batch by batch.
         */
        private final List<Object[]> read;
        private BatchRows batch;
        /** The current row: in {@link #batch}, or in {@link #read}. */
        private int row;
        /** The current row of {@link #read}, or null. */
        private Object[] current;
        private boolean ended;

        Batches(StatementResult.Rows rows) {
            this.rows = rows;
            this.schema = rows.schema();
            this.read = rows instanceof StatementResult.RowsRead rowsRead ? rowsRead.rowsRead() : null;
            this.row = -1;
        }

        StatementResult.Rows rows() {
            return rows;
        }

        @Override
        public TableSchema schema() {
            return schema;
        }

        @Override
        public boolean next() {
            if (ended) {
                return false;
            }
            if (read != null) {
                if (row + 1 < read.size()) {
                    current = read.get(++row);
                    return true;
                }
                ended = true;
                current = null;
                return false;
            }
            if (batch != null && row + 1 < batch.rowCount()) {
                row++;
                return true;
            }
            Batch next = rows.next();
            if (next == null) {
                ended = true;
                batch = null;
                return false;
            }
            batch = new BatchRows(next, schema);
            row = 0;
            return true;
        }

        @Override
        public boolean isNull(int column) {
            return current != null ? current[column] == null : batch.isNull(row, column);
        }

        @Override
        public Object value(int column) {
            return current != null ? current[column] : batch.getObject(row, column);
        }

        @Override
        public long longValue(int column) {
            return current != null ? ((Number) current[column]).longValue() : batch.getLong(row, column);
        }

        @Override
        public double doubleValue(int column) {
            return current != null ? ((Number) current[column]).doubleValue() : batch.getDouble(row, column);
        }

        /**
         * Copies the current row (if there is one) and every row not yet read to the heap, up to
         * {@code limit} rows in all, and finishes the query. The heap rows continue where this left off.
         */
        Heap buffer(long limit) {
            List<Object[]> copied = new ArrayList<>();
            boolean positioned = batch != null || current != null;
            if (positioned) {
                copied.add(copyRow());
            }
            while (copied.size() < limit && next()) {
                copied.add(copyRow());
            }
            close();
            return new Heap(schema, copied, positioned ? 0 : -1);
        }

        private Object[] copyRow() {
            Object[] values = new Object[schema.size()];
            for (int column = 0; column < values.length; column++) {
                values[column] = value(column);
            }
            return values;
        }

        @Override
        public void close() {
            batch = null;
            current = null;
            ended = true;
            rows.close();
        }
    }

    /** Rows on the heap. */
    final class Heap implements RowSource {
        private final TableSchema schema;
        private final List<Object[]> rows;
        private int position;

        /** @param position the current row's index, or -1 before the first */
        Heap(TableSchema schema, List<Object[]> rows, int position) {
            this.schema = schema;
            this.rows = rows;
            this.position = position;
        }

        @Override
        public TableSchema schema() {
            return schema;
        }

        @Override
        public boolean next() {
            if (position < rows.size()) {
                position++;
            }
            return position < rows.size();
        }

        @Override
        public boolean isNull(int column) {
            return value(column) == null;
        }

        @Override
        public Object value(int column) {
            return rows.get(position)[column];
        }

        @Override
        public long longValue(int column) {
            return ((Number) value(column)).longValue();
        }

        @Override
        public double doubleValue(int column) {
            return ((Number) value(column)).doubleValue();
        }

        @Override
        public void close() {
            position = rows.size();
        }
    }
}

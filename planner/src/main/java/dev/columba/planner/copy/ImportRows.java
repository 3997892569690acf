package dev.columba.planner.copy;

import dev.columba.columnstore.build.ColumnBatch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.schema.TableSchema;
import dev.columba.planner.exec.StoreAssignment;
import java.util.Arrays;

/**
 * The part of an import every format shares: batches of the target table's schema, a row ended by
 * setting the columns the file does not fill to NULL and checking NOT NULL (as
 * {@link StoreAssignment#checkNotNull} does, the first such column in table order), and errors
 * that name the file, the row and the column.
 */
public final class ImportRows {
    private final TableSchema schema;
    private final String table;
    private final String fileName;
    private final int[] unfilled;
    private final int[] notNullColumns;

    public ImportRows(ImportTarget target, String fileName, ImportedColumn[] columns) {
        this.schema = target.schema();
        this.table = target.table();
        this.fileName = fileName;
        boolean[] filled = new boolean[schema.size()];
        for (ImportedColumn column : columns) {
            filled[column.target()] = true;
        }
        this.unfilled = java.util.stream.IntStream.range(0, schema.size()).filter(column -> !filled[column]).toArray();
        this.notNullColumns = java.util.stream.IntStream.range(0, schema.size())
                .filter(column -> !schema.column(column).nullable()).toArray();
    }

    /** An empty batch of the table's schema. */
    public ColumnBatch newBatch(int capacity) {
        return new ColumnBatch(schema, capacity);
    }

    /**
     * Ends the row being written of {@code batch}, whose file columns are set.
     *
     * @param row the row's number in the file, 1-based, for the error
     * @throws ColumbaException NULL_NOT_ALLOWED for a NULL in a NOT NULL column
     */
    public void endRow(ColumnBatch batch, long row) {
        for (int column : unfilled) {
            batch.setNull(column);
        }
        for (int column : notNullColumns) {
            if (batch.isNullInRow(column)) {
                ColumbaException e = StoreAssignment.nullNotAllowed(schema.column(column), table, "COPY");
                throw new ColumbaException(e.errorCode(), "COPY " + table + " FROM " + fileName + ", row " + row + ": "
                        + e.detail(), e);
            }
        }
        batch.commitRow();
    }

    /**
     * Ends {@code count} rows of {@code batch} written a column at a time (from its first
     * uncommitted row), as {@link #endRow} ends one row each, and commits them.
     *
     * @param firstRow the first of these rows' number in the file, 1-based, for the error
     * @throws ColumbaException NULL_NOT_ALLOWED for the first row with a NULL in a NOT NULL column
     *     (its first such column in table order); then no row is committed
     */
    public void endRows(ColumnBatch batch, int count, long firstRow) {
        int first = batch.rows();
        int end = first + count;
        for (int column : unfilled) {
            for (int row = first; row < end; row++) {
                batch.putNull(column, row);
            }
        }
        int badRow = end;
        int badColumn = -1;
        for (int column : notNullColumns) {
            for (int row = first; row < badRow; row++) {
                if (batch.isNull(column, row)) {
                    badRow = row;
                    badColumn = column;
                    break;
                }
            }
        }
        if (badColumn >= 0) {
            ColumbaException e = StoreAssignment.nullNotAllowed(schema.column(badColumn), table, "COPY");
            throw new ColumbaException(e.errorCode(), "COPY " + table + " FROM " + fileName + ", row "
                    + (firstRow + badRow - first) + ": " + e.detail(), e);
        }
        batch.commitRows(count);
    }

    /** {@code failure} of the value of {@code column} at row {@code row} (1-based), naming them and the file. */
    public ColumbaException atRow(ColumbaException failure, long row, ImportedColumn column) {
        return new ColumbaException(failure.errorCode(), "COPY " + table + " FROM " + fileName + ", row " + row
                + ", column " + column.fileColumn().name() + ": " + failure.detail(), failure);
    }

    @Override
    public String toString() {
        return "ImportRows[" + table + " from " + fileName + ", unfilled " + Arrays.toString(unfilled) + "]";
    }
}

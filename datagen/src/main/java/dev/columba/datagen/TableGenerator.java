package dev.columba.datagen;

import dev.columba.core.schema.TableSchema;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A deterministic table: the same constructor arguments give the same rows, in the same order,
 * on any machine and JVM (no unseeded randomness, no clock, no hash iteration order, and
 * {@link StrictMath} wherever floating point shapes a value).
 *
 * <p>Rows are addressed by a 0-based row index. {@link #cursor(long, long)} over
 * {@code [fromRow, toRow)} yields exactly the rows a full pass yields at those indexes, so a
 * loader can split {@code [0, rowCount())} into chunks and generate them in parallel, one cursor
 * per thread. Implementations are immutable and safe to share between threads; the cursors they
 * hand out are not.
 */
public interface TableGenerator {

    /** The table's name, e.g. {@code TestTable} or {@code lineitem}. */
    String tableName();

    /** The columns of every row, in order. */
    TableSchema schema();

    /** The number of rows of the whole table. */
    long rowCount();

    /**
     * A cursor over rows {@code fromRow} (inclusive) to {@code toRow} (exclusive) that reuses one
     * array for every row; see {@link RowCursor} for its lifetime.
     *
     * @throws dev.columba.core.error.ColumbaException with {@code INVALID_ARGUMENT} unless
     *     {@code 0 <= fromRow <= toRow <= rowCount()}
     */
    RowCursor cursor(long fromRow, long toRow);

    /** A cursor over the whole table. */
    default RowCursor cursor() {
        return cursor(0, rowCount());
    }

    /**
     * The rows {@code [fromRow, toRow)} as fresh arrays, one per row, which the caller may keep.
     * Costs one array copy per row over {@link #cursor(long, long)}.
     */
    default Iterator<Object[]> rows(long fromRow, long toRow) {
        RowCursor cursor = cursor(fromRow, toRow);
        return new Iterator<>() {
            private boolean advanced;
            private boolean available;

            @Override
            public boolean hasNext() {
                if (!advanced) {
                    available = cursor.next();
                    advanced = true;
                }
                return available;
            }

            @Override
            public Object[] next() {
                if (!hasNext()) {
                    throw new NoSuchElementException("no row after index " + (toRow - 1) + " in this range");
                }
                advanced = false;
                return cursor.row().clone();
            }
        };
    }

    /** The whole table as fresh arrays, one per row. */
    default Iterator<Object[]> rows() {
        return rows(0, rowCount());
    }
}

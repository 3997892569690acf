package dev.columba.planner.copy;

import dev.columba.columnstore.build.ColumnBatch;
import java.util.Iterator;

/**
 * The rows of an imported file in file order, as {@link ColumnBatch}es of the target table's
 * schema (columns not in the file NULL), every value already converted by store assignment and
 * NOT NULL checked. A bad value fails {@code next()} with a message naming the file, the row
 * (1-based, in file order) and the column.
 */
public interface ImportReader extends AutoCloseable {
    /** The batches; read once. */
    Iterator<ColumnBatch> batches();

    /** Releases the file and any memory; idempotent. */
    @Override
    void close();
}

package dev.columba.planner.exec;

import dev.columba.core.exec.RowSource;
import dev.columba.core.exec.VectorSource;
import dev.columba.core.stats.IoCounters;
import dev.columba.planner.plan.StatementEnvironment;
import dev.columba.storage.table.IndexStore;
import dev.columba.storage.table.TableCursor;
import dev.columba.storage.table.TableScan;
import dev.columba.storage.table.TableStore;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * Rows of the rowstore and of system views: scans (index order with a key range, or allocation
 * order) decoded into vectors for core's {@code VectorSourceOperator}, and one row at a time for
 * core's {@code RowsToBatch} (scans, secondary-index seeks, literal rows). Reads
 * go through the statement's reader and are charged to the counters of the table's name, so
 * {@code STATISTICS IO} reports them per table.
 */
public final class RowSources {
    private RowSources() {
    }

    /**
     * The rows {@code scan} selects from {@code table}, decoded a batch at a time straight into
     * vectors: what a batch-mode rowstore scan reads.
     */
    public static VectorSource scanVectors(StatementEnvironment environment, TableStore table, TableScan scan) {
        IoCounters counters = environment.query().counters(table.name());
        TableCursor cursor = table.scan(environment.reader(), scan, counters);
        return new VectorSource() {
            @Override
            public int fill(FieldVector[] vectors, int capacity) {
                return cursor.fill(vectors, capacity);
            }

            @Override
            public void close() {
                cursor.close();
            }
        };
    }

    /**
     * The rows of the cursors {@code next} hands out (null: no more), one after the other, each
     * closed when exhausted: a scan of several partitions, or of those a parallel worker claims. A
     * batch is filled across cursors, so only the last batch is short (the contract of
     * {@code VectorSource}).
     */
    public static VectorSource concatenated(java.util.function.Supplier<TableCursor> next) {
        return new VectorSource() {
            private TableCursor current;
            private boolean done;

            @Override
            public int fill(FieldVector[] vectors, int capacity) {
                int filled = 0;
                while (!done && filled < capacity) {
                    if (current == null) {
                        current = next.get();
                        if (current == null) {
                            done = true;
                            break;
                        }
                    }
                    int reached = current.fill(vectors, filled, capacity);
                    if (reached < capacity) {
                        current.close();
                        current = null;
                    }
                    filled = reached;
                }
                return filled;
            }

            @Override
            public void close() {
                done = true;
                if (current != null) {
                    current.close();
                    current = null;
                }
            }
        };
    }

    /** A cursor over the rows {@code scan} selects from {@code table}, its reads charged to {@code countedAs}. */
    public static TableCursor cursor(StatementEnvironment environment, TableStore table, TableScan scan, String countedAs) {
        return table.scan(environment.reader(), scan, environment.query().counters(countedAs));
    }

    /** No rows, for a batch-mode scan (a key range bounded by NULL selects nothing). */
    public static VectorSource noVectors() {
        return new VectorSource() {
            @Override
            public int fill(FieldVector[] vectors, int capacity) {
                return 0;
            }

            @Override
            public void close() {
                // Nothing held.
            }
        };
    }

    /**
     * The rows whose secondary-index key starts with {@code values}: the index's leaf range, then
     * each row fetched by its locator (from the clustered index or the heap), projected.
     */
    public static RowSource indexSeek(StatementEnvironment environment, TableStore table, IndexStore index, Object[] values,
                                      int[] projection) {
        IoCounters counters = environment.query().counters(table.name());
        List<byte[]> locators = index.lookup(environment.reader(), values, counters);
        Iterator<byte[]> remaining = locators.iterator();
        Object[] row = new Object[projection.length];
        return new RowSource() {
            @Override
            public Object[] next() {
                while (remaining.hasNext()) {
                    Object[] full = table.fetch(environment.reader(), remaining.next(), counters);
                    if (full != null) {
                        for (int column = 0; column < projection.length; column++) {
                            row[column] = full[projection[column]];
                        }
                        return row;
                    }
                }
                return null;
            }

            @Override
            public void close() {
                // Nothing held: the locators were read up front, each fetch releases its page.
            }
        };
    }

    /** The given rows, each projected. */
    public static RowSource rows(Iterator<Object[]> rows, int[] projection) {
        Object[] row = new Object[projection.length];
        return new RowSource() {
            @Override
            public Object[] next() {
                if (!rows.hasNext()) {
                    return null;
                }
                Object[] full = rows.next();
                for (int column = 0; column < projection.length; column++) {
                    row[column] = full[projection[column]];
                }
                return row;
            }

            @Override
            public void close() {
                // Nothing held.
            }
        };
    }

    /** No rows (a key range bounded by NULL selects nothing). */
    public static RowSource empty() {
        return new RowSource() {
            @Override
            public Object[] next() {
                return null;
            }

            @Override
            public void close() {
                // Nothing held.
            }
        };
    }
}

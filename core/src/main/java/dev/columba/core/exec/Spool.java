package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.CodedStrings;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.ExecutionMode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;

/**
 * One input's rows computed once and read by several consumers: a subplan a plan uses in two
 * places (TPC-H Q15's {@code revenue} view is joined to {@code supplier} and also gives the
 * maximum the join compares with), which would otherwise run twice. Each consumer gets its own
 * {@link #reader()}. The first reader asked for a batch drains the input into copies of its live
 * rows (from an allocator of the spool's own, under the query's memory limit, as a hash join's
 * build is), then closes the input; every reader returns views of those copies, in the input's
 * order. The copies are released when the last reader closes.
 *
 * <p>One thread: the planner spools only outside parallel fragments, so readers never race. A
 * failure while filling is the failure of every reader that asks afterwards, never a short result.
 */
public final class Spool {
    private static final AtomicLong IDS = new AtomicLong();

    private final Operator input;
    private final String name = "Spool#" + IDS.incrementAndGet();
    private final List<RowBuffer> copies = new ArrayList<>();
    private int readersMade;
    private int readersOpened;
    private int readersClosed;
    private BufferAllocator allocator;
    private boolean filled;
    private RuntimeException failure;

    /** A spool of {@code input}'s rows, which it owns from here. */
    public Spool(Operator input) {
        this.input = input;
    }

    /**
     * A new reader of the spool's rows. Every reader is made before any is closed (a plan is
     * instantiated whole before it runs): the spool releases the rows when the last reader made closes.
     */
    public Operator reader() {
        if (readersClosed > 0) {
            throw new IllegalStateException(name + " was released: its readers must all be made before any closes");
        }
        readersMade++;
        return new Reader();
    }

    private void openInput(ExecutionContext context) {
        if (readersOpened++ == 0) {
            allocator = context.allocator().newChildAllocator(name, 0, Long.MAX_VALUE);
            input.open(context);
        }
    }

    /** The copies of every input row, made by the first reader to ask. */
    private List<RowBuffer> rows() {
        if (failure != null) {
            throw failure;
        }
        if (!filled) {
            try {
                fill();
            } catch (RuntimeException e) {
                failure = e;
                throw e;
            }
        }
        return copies;
    }

    private void fill() {
        int[] positions = new int[ExecutionContext.DEFAULT_BATCH_SIZE];
        Batch batch;
        while ((batch = input.next()) != null) {
            int live = batch.selectedCount();
            if (positions.length < live) {
                positions = new int[live];
            }
            batch.copySelectedRows(positions);
            for (int column = 0; column < batch.columnCount(); column++) {
                CodedStrings codes = batch.codes(column);
                if (codes != null) {
                    // Strings a scan below left to be decoded on demand: the copy needs the values.
                    codes.materialize();
                }
            }
            RowBuffer copy = new RowBuffer(input.schema(), allocator);
            copies.add(copy);
            copy.append(batch, positions, live);
        }
        filled = true;
        // Its hash tables and scans are not needed any more: the copies hold the rows.
        input.close();
    }

    private void readerClosed() {
        if (++readersClosed < readersMade) {
            return;
        }
        RuntimeException closing = null;
        for (RowBuffer copy : copies) {
            copy.close();
        }
        copies.clear();
        try {
            input.close();
        } catch (RuntimeException e) {
            closing = e;
        }
        if (allocator != null) {
            try {
                allocator.close();
            } catch (IllegalStateException e) {
                ColumbaException leak = new ColumbaException(ErrorCode.INTERNAL, name + " did not release its memory: "
                        + e.getMessage(), e);
                if (closing == null) {
                    closing = leak;
                } else {
                    closing.addSuppressed(leak);
                }
            }
        }
        if (closing != null) {
            throw closing;
        }
    }

    /** One consumer's pass over the spooled rows. */
    private final class Reader extends BaseOperator {
        private int next;

        Reader() {
            super(input.schema(), List.of());
        }

        @Override
        public ExecutionMode mode() {
            return input.mode();
        }

        @Override
        void opened() {
            openInput(context);
        }

        @Override
        Batch produce() {
            List<RowBuffer> rows = rows();
            if (next == rows.size()) {
                return null;
            }
            return Batch.viewOf(rows.get(next++).asBatch());
        }

        @Override
        void release() {
            readerClosed();
        }
    }
}

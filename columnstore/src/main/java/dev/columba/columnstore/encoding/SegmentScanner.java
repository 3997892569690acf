package dev.columba.columnstore.encoding;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import org.apache.arrow.vector.FieldVector;

/**
 * A sequential position over a {@link SegmentReader}, for scans that read batches in order and
 * skip the ones they do not need. Skipping moves the position without touching the data. Not
 * thread-safe; one per scan.
 */
public final class SegmentScanner {
    private final SegmentReader reader;
    private int position;

    SegmentScanner(SegmentReader reader) {
        this.reader = reader;
    }

    /** The next row to read. */
    public int position() {
        return position;
    }

    public int remaining() {
        return reader.rowCount() - position;
    }

    /** Moves past {@code rows} rows without decoding them. */
    public void skip(int rows) {
        if (rows < 0 || rows > remaining()) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "cannot skip " + rows + " rows with " + remaining()
                    + " remaining");
        }
        position += rows;
    }

    /**
     * Decodes up to {@code count} rows from the position into {@code target} from
     * {@code targetOffset} (as {@link SegmentReader#decode}), moves past them, and returns how many.
     */
    public int next(int count, FieldVector target, int targetOffset) {
        int rows = Math.min(count, remaining());
        reader.decode(position, rows, target, targetOffset);
        position += rows;
        return rows;
    }

    /**
     * Selects the rows of the next {@code count} (or fewer remaining) that match {@code filter},
     * as {@link SegmentFilter#select}, without moving: decode them with {@link #next} or pass them.
     */
    public int select(SegmentFilter filter, int count, int[] selection) {
        return filter.select(position, Math.min(count, remaining()), selection);
    }
}

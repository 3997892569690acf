package dev.columba.columnstore.encoding;

/**
 * Splits a sequence of rows into runs of equal values, the one rule analysis and encoding share:
 * a NULL row extends the run it is in (leading NULLs join the first value's run), so NULLs never
 * break a run; an all-NULL sequence is one run of value 0. Counts runs and, when given arrays,
 * records them. Not thread-safe.
 */
final class RunCounter {
    private final long[] values;
    private final int[] lengths;
    private boolean started;
    private long current;
    private int currentLength;
    private int runCount;
    private int maxLength;

    /** Counts runs only. */
    RunCounter() {
        this(null, null);
    }

    /** Records runs into arrays sized by a previous count. */
    RunCounter(long[] values, int[] lengths) {
        this.values = values;
        this.lengths = lengths;
    }

    void addNull() {
        currentLength++;
    }

    void add(long value) {
        if (!started) {
            started = true;
            current = value;
            currentLength++;
        } else if (value == current) {
            currentLength++;
        } else {
            close();
            current = value;
            currentLength = 1;
        }
    }

    /** Ends the last run; call once, after the last row. */
    void finish() {
        if (currentLength > 0) {
            close();
        }
    }

    private void close() {
        if (values != null) {
            values[runCount] = current;
            lengths[runCount] = currentLength;
        }
        runCount++;
        maxLength = Math.max(maxLength, currentLength);
        currentLength = 0;
    }

    int runCount() {
        return runCount;
    }

    int maxLength() {
        return maxLength;
    }
}

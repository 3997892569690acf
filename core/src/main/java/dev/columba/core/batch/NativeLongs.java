package dev.columba.core.batch;

/**
 * A whole-number or narrow DECIMAL column of a batch as the longs its producer stored it as: for
 * each live row, the value (INT, BIGINT) or the unscaled value at the column's scale (DECIMAL of
 * precision at most 18), indexed by row. A consumer that only adds the values up reads them here
 * instead of from the vector, whose DECIMAL layout is 16 bytes a value (TPC-H Q1's sums and the
 * products it sums): the producer then skips writing the vector.
 *
 * <p>The producer that decodes the column (a columnstore scan) owns the longs, attaches them to
 * its batch ({@link Batch#attachLongs}), {@linkplain #markDefined marks} them when it wrote them
 * and {@linkplain #forget forgets} them before it writes the batch again; views pass them on with
 * the vector ({@link Batch#inheritCodes}). Defined longs hold no NULLs (the producer hands on only
 * columns without NULLs in the batch), and only the batch's live rows hold values.
 *
 * <p>While the longs are defined the producer may {@linkplain #defer defer} writing the vector,
 * when the planner has established that the column's only readers add it up: the vector then holds
 * nothing defined until a consumer that needs it asks ({@link #materialize}). Every operator between
 * the producer and that consumer either passes the vector on untouched or asks before it reads it
 * (a projection computing an expression over the column). Owned by one thread, as its batch is.
 */
public final class NativeLongs {
    private long[] values = new long[0];
    private boolean defined;
    /** Bounds of every defined value (their producer's, e.g. a packed segment's reference and width). */
    private long lowest;
    private long highest;
    /** Writes the column's values into the vector, or null when the vector holds them. */
    private Runnable deferred;

    /** Room for the values of rows {@code [0, rows)}, to be written by the producer, then {@linkplain #markDefined marked}. */
    public long[] valuesFor(int rows) {
        if (values.length < rows) {
            values = new long[Math.max(rows, 2 * values.length)];
        }
        return values;
    }

    /**
     * Records that {@link #values} holds the value of every live row of the batch, none of them
     * NULL, all in {@code [lowest, highest]} ({@code Long.MIN_VALUE} and {@code Long.MAX_VALUE} when
     * the producer knows no tighter bounds): a consumer may rely on them to rule out overflow.
     */
    public void markDefined(long lowest, long highest) {
        if (lowest > highest) {
            throw new IllegalArgumentException("bounds " + lowest + " > " + highest);
        }
        defined = true;
        this.lowest = lowest;
        this.highest = highest;
    }

    /**
     * The largest magnitude of a defined value, {@code Long.MAX_VALUE} when the bounds allow any
     * (or {@code Long.MIN_VALUE}, whose magnitude no long holds).
     */
    public long magnitude() {
        return lowest == Long.MIN_VALUE ? Long.MAX_VALUE : Math.max(Math.abs(lowest), Math.abs(highest));
    }

    /** The values are no longer the batch's (it is about to be written again); the vector holds the column. */
    public void forget() {
        defined = false;
        deferred = null;
    }

    /**
     * Makes these longs {@code source}'s values as they are, for another column whose every value
     * equals the source column's (a widening of it): the same values array and bounds, and the
     * column's vector not written until {@code writeVector} writes it ({@link #materialize}).
     */
    public void mirror(NativeLongs source, Runnable writeVector) {
        if (!source.defined) {
            throw new IllegalStateException("the source's longs are not defined");
        }
        values = source.values;
        defined = true;
        lowest = source.lowest;
        highest = source.highest;
        deferred = writeVector;
    }

    /** Records that the vector is not written yet; {@code writeVector} writes it (and leaves these values as they are). */
    public void defer(Runnable writeVector) {
        deferred = writeVector;
    }

    /** Whether the vector is still to be written ({@link #materialize}). */
    public boolean deferred() {
        return deferred != null;
    }

    /** Makes the vector hold the column, writing it now if its producer deferred it. */
    public void materialize() {
        Runnable write = deferred;
        if (write != null) {
            deferred = null;
            write.run();
        }
    }

    /** Whether {@link #values} holds the batch's live rows' values. */
    public boolean defined() {
        return defined;
    }

    /** The values by row; meaningful at the batch's live rows while {@link #defined}. */
    public long[] values() {
        return values;
    }

    /** Has the vectors written whose producer deferred them, for consumers that read the vectors of {@code columns} of {@code batch}. */
    public static void materialize(Batch batch, int[] columns) {
        for (int column : columns) {
            NativeLongs longs = batch.longs(column);
            if (longs != null) {
                longs.materialize();
            }
        }
    }
}

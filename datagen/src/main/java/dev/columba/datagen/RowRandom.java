package dev.columba.datagen;

/**
 * The random numbers of one row of one column, derived from (seed, stream, row index)
 * alone so that row {@code i} never depends on rows {@code 0..i-1}: this is what lets ranges be
 * generated independently and in parallel.
 *
 * <p>Each row starts a SplitMix64 sequence (Steele, Lea and Flood, "Fast splittable pseudorandom
 * number generators", OOPSLA 2014) at {@code mix(streamKey + rowIndex * GOLDEN_GAMMA)}: the
 * finalizer scatters neighbouring rows to unrelated points of the 2^64 cycle. The stream number
 * keeps columns independent of one another, so changing how one column draws does not change
 * another. Mutable and reused for every row of a cursor; one thread at a time.
 */
final class RowRandom {
    /** 2^64 divided by the golden ratio, odd: SplitMix64's increment. */
    private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;
    private static final double DOUBLE_UNIT = 0x1.0p-53;

    private final long streamKey;
    private long state;

    RowRandom(long seed, long stream) {
        this.streamKey = mix(seed ^ mix(stream + GOLDEN_GAMMA));
    }

    /** Restarts the sequence at the first draw of row {@code rowIndex}. */
    void startRow(long rowIndex) {
        state = mix(streamKey + rowIndex * GOLDEN_GAMMA);
    }

    long nextLong() {
        state += GOLDEN_GAMMA;
        return mix(state);
    }

    /** Uniform in [0, 1), 53 random bits. */
    double nextDouble() {
        return (nextLong() >>> 11) * DOUBLE_UNIT;
    }

    /** Uniform in [0, bound) for {@code bound > 0}, by the multiply-high method (bias below bound / 2^64). */
    long nextLong(long bound) {
        return Math.unsignedMultiplyHigh(nextLong(), bound);
    }

    /** Uniform in [0, bound) for {@code bound > 0}. */
    int nextInt(int bound) {
        return (int) nextLong(bound);
    }

    /** True with probability {@code probability}. */
    boolean chance(double probability) {
        return nextDouble() < probability;
    }

    /** The SplitMix64 finalizer (Stafford's variant 13): a bijection that mixes all 64 bits. */
    static long mix(long value) {
        long z = value;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}

package dev.columba.columnstore.encoding;

import java.util.Random;

/**
 * Runs a randomized test body with a seed that is printed and named in any failure, and that
 * {@code -Dcolumba.test.seed=<seed>} replays.
 */
public final class Seeds {
    public static final String SEED_PROPERTY = "columba.test.seed";

    private Seeds() {
    }

    public interface Body {
        void run(Random random) throws Exception;
    }

    public static void run(String testName, Body body) throws Exception {
        long seed = Long.getLong(SEED_PROPERTY, new Random().nextLong());
        System.out.println(testName + ": seed " + seed + " (replay with -D" + SEED_PROPERTY + "=" + seed + ")");
        try {
            body.run(new Random(seed));
        } catch (AssertionError | RuntimeException failure) {
            throw new AssertionError(testName + " failed with seed " + seed + "; replay with -D" + SEED_PROPERTY + "=" + seed,
                    failure);
        }
    }
}

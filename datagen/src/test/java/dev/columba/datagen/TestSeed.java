package dev.columba.datagen;

import java.util.SplittableRandom;

/**
 * The seed of a randomized test: {@code -Dcolumba.test.seed=N} replays a run, otherwise a fresh
 * one is drawn. Tests print it and put it in their failure messages.
 */
final class TestSeed {
    static final String PROPERTY = "columba.test.seed";

    private TestSeed() {
    }

    static long draw(String testName) {
        Long replay = Long.getLong(PROPERTY);
        long seed = replay != null ? replay : new SplittableRandom().nextLong();
        System.out.println(testName + ": seed " + seed + " (replay with -D" + PROPERTY + "=" + seed + ")");
        return seed;
    }

    static String describe(long seed) {
        return "seed " + seed + ", replay with -D" + PROPERTY + "=" + seed;
    }
}

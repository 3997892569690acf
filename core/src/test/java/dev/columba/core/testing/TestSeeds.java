package dev.columba.core.testing;

/**
 * Seeds for randomized tests: a fresh one per run, printed so a failure can be replayed with
 * {@code -Dcolumba.test.seed=<seed>} (every randomized test also names its seed in its failure message).
 */
public final class TestSeeds {
    private TestSeeds() {
    }

    /** The replay seed if one was given, else a new one; printed either way. */
    public static long seed(String testName) {
        String given = System.getProperty("columba.test.seed");
        long seed = given != null ? Long.parseLong(given) : System.nanoTime() ^ Thread.currentThread().threadId() * 0x9E3779B97F4A7C15L;
        System.out.println(testName + " seed " + seed + " (replay with -Dcolumba.test.seed=" + seed + ")");
        return seed;
    }
}

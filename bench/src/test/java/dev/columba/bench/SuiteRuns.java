package dev.columba.bench;

import org.openjdk.jmh.runner.RunnerException;

/** Runs a suite end to end from a test, in this JVM when the options say forks 0. */
final class SuiteRuns {
    private SuiteRuns() {
    }

    /**
     * {@link BenchMain#run(BenchOptions, java.io.PrintStream)} with JMH's machine-wide lock ignored:
     * JMH refuses to start while another JMH run on the machine holds its lock file, and a test run
     * measures nothing, so it need not wait for one.
     */
    static BenchMain.Completed run(BenchOptions options) throws RunnerException {
        String ignoreLock = System.setProperty("jmh.ignoreLock", "true");
        try {
            return BenchMain.run(options, System.out);
        } finally {
            if (ignoreLock == null) {
                System.clearProperty("jmh.ignoreLock");
            } else {
                System.setProperty("jmh.ignoreLock", ignoreLock);
            }
        }
    }
}

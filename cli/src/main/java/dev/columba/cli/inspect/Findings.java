package dev.columba.cli.inspect;

import java.io.PrintStream;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The damage an inspection found: each problem is printed where it is met, marked with
 * {@code "! "}, and listed again at the end so that a long dump still ends with what matters. A
 * problem met twice (a catalog page read for names and again for the listing) counts once. Any
 * problem makes the exit code 1.
 */
final class Findings {
    static final String MARK = "! ";

    private final PrintStream out;
    private final Set<String> problems = new LinkedHashSet<>();

    Findings(PrintStream out) {
        this.out = out;
    }

    /** Records a problem and prints it, indented by {@code indent}, unless it was already reported. */
    void report(String indent, String problem) {
        if (problems.add(problem)) {
            out.println(indent + MARK + problem);
        }
    }

    /**
     * Records a problem without printing it where it is met: for a listing whose own line already
     * shows it (a page marked BAD), so that it appears only in the closing list.
     */
    void record(String problem) {
        problems.add(problem);
    }

    boolean any() {
        return !problems.isEmpty();
    }

    /** Prints the closing summary: "no problems found", or the count and every problem again. */
    void printSummary() {
        out.println();
        if (problems.isEmpty()) {
            out.println("no problems found");
            return;
        }
        out.println(problems.size() + (problems.size() == 1 ? " problem" : " problems") + " found:");
        for (String problem : problems) {
            out.println("  " + MARK + problem);
        }
    }
}

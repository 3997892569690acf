package dev.columba.testing.crash;

import java.util.List;
import java.util.function.Predicate;

/**
 * What one child JVM did: the lines it printed (standard output and error, in order, noise such as
 * JVM warnings left out), whether the harness killed it, and its exit status (137 or similar when
 * killed).
 */
public record ChildRun(List<String> lines, boolean killed, int exitCode) {
    public ChildRun {
        lines = List.copyOf(lines);
    }

    /** The lines starting with {@code prefix}, the prefix removed. */
    public List<String> after(String prefix) {
        return lines.stream().filter(line -> line.startsWith(prefix)).map(line -> line.substring(prefix.length())).toList();
    }

    /** The number after {@code prefix} on the last line starting with it, or {@code otherwise} if no line does. */
    public long lastNumber(String prefix, long otherwise) {
        List<String> values = after(prefix);
        return values.isEmpty() ? otherwise : Long.parseLong(values.getLast().trim());
    }

    /** Throws if any line is not {@code expected}: the child reported a failure (a stack trace, an error). */
    public ChildRun requireOnly(Predicate<String> expected) {
        for (String line : lines) {
            if (!expected.test(line)) {
                throw new AssertionError("child failed (line \"" + line + "\"): " + lines);
            }
        }
        return this;
    }

    /** Throws unless the harness killed the child: it ended by itself before the moment came. */
    public ChildRun requireKilled() {
        if (!killed) {
            throw new AssertionError("child ended by itself (exit " + exitCode + ") before it was killed: " + lines);
        }
        return this;
    }
}

package dev.columba.testing.crash;

import java.nio.file.Path;

/**
 * The child of {@link ChildJvmTest}: acknowledges units 1, 2, ... in the file {@code args[0]}, then
 * prints {@code n <unit>}; with a second argument it stops after that many units, else it goes on
 * until it is killed.
 */
public final class CountingChild {
    private CountingChild() {
    }

    public static void main(String[] args) throws InterruptedException {
        long units = args.length > 1 ? Long.parseLong(args[1]) : Long.MAX_VALUE;
        try (AckFile acknowledged = AckFile.append(Path.of(args[0]))) {
            for (long unit = 1; unit <= units; unit++) {
                acknowledged.write("n " + unit);
                System.out.println("n " + unit);
                Thread.sleep(2);
            }
        }
    }
}

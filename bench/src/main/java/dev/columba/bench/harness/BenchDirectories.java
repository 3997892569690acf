package dev.columba.bench.harness;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Where the bench keeps its data and results by default: {@code bench/target/data} (databases
 * reused across runs, removed by {@code mvn clean}) and {@code bench/results} (reports, committed).
 * Found from the location of the bench's classes ({@code bench/target/classes}), so it does not
 * depend on the directory the launcher was started from.
 */
public final class BenchDirectories {
    private BenchDirectories() {
    }

    /** {@code bench/target/data}, or {@code override} when it is not empty. */
    public static Path data(String override) {
        return override == null || override.isEmpty() ? moduleDirectory().resolve("target").resolve("data") : Path.of(override);
    }

    /** {@code bench/results}. */
    public static Path results() {
        return moduleDirectory().resolve("results");
    }

    /**
     * The bench module's directory.
     *
     * @throws ColumbaException INVALID_ARGUMENT when the classes are not in {@code <module>/target/classes}
     *         (e.g. run from a jar): pass the directories explicitly then
     */
    static Path moduleDirectory() {
        Path classes;
        try {
            classes = Path.of(BenchDirectories.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "cannot tell where the bench's classes are ("
                    + e + "); pass --data-dir and --results-dir", e);
        }
        Path target = classes.getParent();
        if (!Files.isDirectory(classes) || !classes.getFileName().toString().equals("classes") || target == null
                || !target.getFileName().toString().equals("target")) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "the bench's classes are in " + classes
                    + ", not in <module>/target/classes; pass --data-dir and --results-dir");
        }
        return target.getParent();
    }

    /** Deletes {@code directory} and everything below it; nothing if it does not exist. */
    public static void deleteRecursively(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot delete " + directory + ": " + e.getMessage(), e);
        }
    }
}

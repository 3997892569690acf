package dev.columba.bench.reliability;

import dev.columba.bench.harness.BenchDirectories;
import dev.columba.storage.page.PageFormat;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * Byte flips in every file of a database after a clean close, each in a fresh copy, answers
 * compared with those before the flip. A flip ends one of four ways: the database refuses to open
 * or a query fails with an error ("detected"; "named" when the message names the damaged file),
 * every answer is as before ("same answers": the byte was unused, or redundant), or an answer
 * differs without an error ("silently wrong", a failure). An internal error (XX000), an exception
 * other than a SQLException or a hang is a failure too, and so is a flip in a file a checksum covers
 * byte for byte ({@link CrashFlipTargets#CHECKSUMMED}) that is not detected with the file named, and
 * a detected flip whose damaged bytes are gone afterwards (neither in the file, nor, for a data file,
 * in its flipped page, nor in {@code damaged/}). Flip {@code n} of a run is a function of
 * the run's seed and {@code n}.
 */
final class FileDamageCampaign {
    private static final int ROWSTORE_ROWS = 3000;
    private static final int COLUMNSTORE_ROWS = 3000;
    private static final int OPEN_AND_QUERY_SECONDS = 60;

    /** The statements whose answers are compared: every row of both tables, and their aggregates. */
    private static final List<String> QUERIES = List.of(
            "SELECT id, s, d FROM r ORDER BY id",
            "SELECT COUNT(*), SUM(id), SUM(d), MAX(s) FROM r",
            "SELECT id, s, d FROM c ORDER BY id",
            "SELECT COUNT(*), SUM(id), SUM(d), MIN(s) FROM c",
            "SELECT s FROM r WHERE id = 1500");

    /** How one flip ended. */
    enum Outcome { DETECTED_NAMED, DETECTED, SAME_ANSWERS, SILENTLY_WRONG, INTERNAL_ERROR, HANG }

    record Flip(long index, String file, long offset, int mask, Outcome outcome, String detail) {
        String line() {
            return "flip " + index + ": " + file + " offset " + offset + " mask 0x" + Integer.toHexString(mask) + ": "
                    + outcome + (detail.isEmpty() ? "" : " (" + detail.replace('\n', ' ') + ")");
        }
    }

    /**
     * {@code detected} flips were detected, of which {@code preserved} left their damaged bytes in
     * place or in {@code damaged/} (one that did not is a failure).
     */
    record Result(long seed, Map<String, Map<Outcome, Long>> byFileKind, List<Flip> failures, long flips,
                  long detected, long preserved) {
    }

    private final long seed;
    private final Path workDirectory;
    private final PrintStream progress;

    FileDamageCampaign(long seed, Path workDirectory, PrintStream progress) {
        this.seed = seed;
        this.workDirectory = workDirectory;
        this.progress = progress;
    }

    Result run(long flips) throws SQLException, IOException {
        Path pristine = workDirectory.resolve("pristine");
        BenchDirectories.deleteRecursively(workDirectory);
        build(pristine);
        List<String> answers = answers(pristine);
        List<Path> files;
        try (Stream<Path> walk = Files.walk(pristine)) {
            files = walk.filter(Files::isRegularFile).filter(file -> sizeOf(file) > 0)
                    .filter(file -> !file.getFileName().toString().equals("lock")).sorted().toList();
        }
        progress.println("  " + files.size() + " files: " + files.stream().map(file -> pristine.relativize(file).toString())
                .toList());
        Map<String, Map<Outcome, Long>> byFileKind = new TreeMap<>();
        List<Flip> failures = new ArrayList<>();
        long detected = 0;
        long preserved = 0;
        ExecutorService worker = newWorker();
        for (long index = 0; index < flips; index++) {
            SplittableRandom random = new SplittableRandom(seed ^ (index * 0x9E3779B97F4A7C15L));
            Path file = files.get((int) (index % files.size()));
            String relative = pristine.relativize(file).toString();
            long offset = random.nextLong(sizeOf(file));
            int mask = 1 << random.nextInt(8);
            Path copy = workDirectory.resolve("flip");
            BenchDirectories.deleteRecursively(copy);
            copyRecursively(pristine, copy);
            flip(copy.resolve(relative), offset, mask);
            byte[] damaged = Files.readAllBytes(copy.resolve(relative));
            long flip = index;
            Future<Flip> outcome = worker.submit(() -> judge(flip, relative, offset, mask, copy, answers));
            Flip judged;
            try {
                judged = outcome.get(OPEN_AND_QUERY_SECONDS, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                outcome.cancel(true);
                worker.shutdownNow();
                worker = newWorker();
                judged = new Flip(index, relative, offset, mask, Outcome.HANG, "no answer in " + OPEN_AND_QUERY_SECONDS + " s");
            } catch (ExecutionException e) {
                judged = new Flip(index, relative, offset, mask, Outcome.INTERNAL_ERROR, String.valueOf(e.getCause()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted", e);
            }
            byFileKind.computeIfAbsent(kind(relative), key -> new TreeMap<>()).merge(judged.outcome(), 1L, Long::sum);
            boolean wasDetected = judged.outcome() == Outcome.DETECTED_NAMED || judged.outcome() == Outcome.DETECTED;
            // The evidence of a detected flip stays: the opening that refused it rewrote, cut and moved nothing.
            boolean kept = !wasDetected || KillCampaign.stillThere(copy, copy.resolve(relative), damaged,
                    relative.endsWith(".data") ? offset - offset % PageFormat.PAGE_SIZE : -1);
            detected += wasDetected ? 1 : 0;
            preserved += wasDetected && kept ? 1 : 0;
            if (!kept) {
                judged = new Flip(judged.index(), relative, offset, mask, judged.outcome(),
                        "the damaged bytes are gone; " + judged.detail());
            }
            // A flip in a file a checksum covers byte for byte must be caught, the file named.
            if (judged.outcome() == Outcome.SILENTLY_WRONG || judged.outcome() == Outcome.INTERNAL_ERROR
                    || judged.outcome() == Outcome.HANG || !kept
                    || CrashFlipTargets.CHECKSUMMED.contains(relative) && judged.outcome() != Outcome.DETECTED_NAMED) {
                failures.add(judged);
                progress.println("  FAILURE seed " + seed + " " + judged.line());
            }
            if ((index + 1) % 100 == 0) {
                progress.println("  " + (index + 1) + " flips, " + failures.size() + " failures");
            }
        }
        worker.shutdownNow();
        return new Result(seed, byFileKind, failures, flips, detected, preserved);
    }

    private static Flip judge(long index, String file, long offset, int mask, Path database, List<String> expected) {
        List<String> answers;
        try {
            answers = answers(database);
        } catch (SQLException e) {
            String message = String.valueOf(e.getMessage());
            if ("XX000".equals(e.getSQLState())) {
                return new Flip(index, file, offset, mask, Outcome.INTERNAL_ERROR, e.getSQLState() + " " + message);
            }
            String name = Path.of(file).getFileName().toString();
            return new Flip(index, file, offset, mask, message.contains(name) ? Outcome.DETECTED_NAMED : Outcome.DETECTED,
                    e.getSQLState() + " " + message);
        }
        return new Flip(index, file, offset, mask, answers.equals(expected) ? Outcome.SAME_ANSWERS : Outcome.SILENTLY_WRONG,
                "");
    }

    /**
     * The file kinds the report counts by: the top folder and the extension ({@code columnstore/*.crg}),
     * or the name of a file at the top ({@code control}).
     */
    static String kind(String relative) {
        Path path = Path.of(relative);
        String name = path.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String folder = path.getNameCount() > 1 ? path.getName(0) + "/" : "";
        return dot > 0 ? folder + "*" + name.substring(dot) : folder + name;
    }

    static void build(Path directory) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:columba:" + directory);
             Statement statement = connection.createStatement()) {
            // The rowstore table on a filegroup of its own, so the database has data/files.properties
            // and a second data file to damage.
            statement.execute("ALTER DATABASE CURRENT ADD FILEGROUP fg");
            statement.execute("ALTER DATABASE CURRENT ADD FILE (NAME = f1, FILENAME = 'data/fg1.data') TO FILEGROUP fg");
            statement.execute("CREATE TABLE r (id BIGINT PRIMARY KEY, s VARCHAR(40), d DECIMAL(12, 2)) ON fg");
            statement.execute("CREATE TABLE c (id INT, s VARCHAR(40), d DECIMAL(12, 2)) WITH (storage = columnstore)");
            statement.execute("INSERT INTO r SELECT generate_series, 'row ' || CAST(generate_series AS VARCHAR(10))"
                    + " || ' 日本', generate_series * 1.25 FROM generate_series(1, " + ROWSTORE_ROWS + ")");
            statement.execute("INSERT INTO c SELECT generate_series, 'col ' || CAST(generate_series % 97 AS VARCHAR(10)),"
                    + " generate_series * 0.5 FROM generate_series(1, " + COLUMNSTORE_ROWS + ")");
            statement.execute("ALTER INDEX ALL ON c REORGANIZE WITH (COMPRESS_ALL_ROW_GROUPS = ON)");
            statement.execute("UPDATE r SET s = 'changed' WHERE id % 100 = 0");
            statement.execute("DELETE FROM c WHERE id % 50 = 0");
            statement.execute("CHECKPOINT");
        }
    }

    private static List<String> answers(Path directory) throws SQLException {
        List<String> answers = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection("jdbc:columba:" + directory);
             Statement statement = connection.createStatement()) {
            for (String query : QUERIES) {
                StringBuilder answer = new StringBuilder();
                try (ResultSet rows = statement.executeQuery(query)) {
                    int columns = rows.getMetaData().getColumnCount();
                    while (rows.next()) {
                        for (int column = 1; column <= columns; column++) {
                            answer.append(rows.getString(column)).append('|');
                        }
                        answer.append('\n');
                    }
                }
                answers.add(answer.toString());
            }
        }
        return answers;
    }

    private static void flip(Path file, long offset, int mask) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        bytes[(int) offset] ^= (byte) mask;
        Files.write(file, bytes);
    }

    private static ExecutorService newWorker() {
        return Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "file-damage");
            thread.setDaemon(true);
            return thread;
        });
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Copies a database directory, without its lock file. */
    static void copyRecursively(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path source : walk.toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else if (!source.getFileName().toString().equals("lock")) {
                    Files.copy(source, target);
                }
            }
        }
    }
}

package dev.columba.bench.reliability;

import dev.columba.bench.harness.BenchDirectories;
import dev.columba.storage.page.PageFormat;
import dev.columba.testing.crash.AckFile;
import dev.columba.testing.crash.ChildJvm;
import dev.columba.testing.crash.ChildRun;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
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
 * The kill -9 campaign: again and again on one database, a child JVM ({@link KillWorkload}) works
 * and is killed with SIGKILL after a random delay — while starting, recovering, inserting,
 * committing, checkpointing or compressing — and the database is reopened and compared with the
 * acknowledged units ({@link UnitModel}): no acknowledged row lost, no transaction half there,
 * nothing there that was not committed.
 *
 * <p>Flips after a crash: before some reopens, a copy of the crashed database gets one bit flipped
 * in one of the files recovery and the queries after it read — the log (mostly its newest segment,
 * where the records since the last checkpoint are), the control file, the properties, each kind of
 * data-file page (catalog, rowstore B+tree, columnstore metadata, allocation maps, boot, free), the
 * columnstore's rowgroup files and dictionaries; the kinds take turns ({@link CrashFlipTargets}) —
 * and is opened and checked. It must either fail with an error that is not internal (a clear
 * SQLSTATE; "named" when the message names the file) or show every acknowledged unit as it was. A
 * detected flip's damaged bytes must still exist afterwards (the file untouched there, or kept in
 * the {@code damaged/} folder); a flip in the log must be kept whatever the outcome, since recovery
 * reads it all; a flip in the control file or the properties, which checksums cover byte for byte,
 * must be detected with the file named ({@link CrashFlipTargets#CHECKSUMMED}). A flip the open overwrote or removed with the answers right (a page recovery wrote
 * again from its full image in the log, a columnstore file no committed state refers to) is counted
 * apart. Kill {@code n} and flip {@code n} are functions of the seed and {@code n}.
 */
final class KillCampaign {
    /** Kill delays after the child is ready (in its work), and after its launch (mostly in its start and recovery). */
    private static final int MAX_WORK_MILLIS = 4000;
    private static final int MAX_START_MILLIS = 5000;
    private static final int OPEN_SECONDS = 120;

    /** How a flip after a crash ended. */
    enum FlipOutcome { DETECTED_NAMED, DETECTED, SAME_ANSWERS, SILENTLY_WRONG, INTERNAL_ERROR, HANG }

    record Result(long seed, KillWorkload.Kind workload, int kills, long reopensOk, long reopensFailed, long killedBeforeReady, long acknowledged,
                  long rowsLost, long halfVisible, long unexpected, Map<String, Map<FlipOutcome, Long>> flipsByKind,
                  long flipsPreserved, Map<String, Long> overwrittenByKind, long spilledPages, long childrenSpilled,
                  List<String> failures, long elapsedNanos) {
        /** Flips with every answer right whose bytes the open overwrote or removed, over every kind. */
        long flipsOverwritten() {
            return overwrittenByKind.values().stream().mapToLong(Long::longValue).sum();
        }

        long flipCount() {
            return flipsByKind.values().stream().flatMap(outcomes -> outcomes.values().stream())
                    .mapToLong(Long::longValue).sum();
        }

        /** Flips by outcome over every kind. */
        Map<FlipOutcome, Long> flips() {
            Map<FlipOutcome, Long> total = new EnumMap<>(FlipOutcome.class);
            flipsByKind.values().forEach(outcomes -> outcomes.forEach((outcome, count) -> total.merge(outcome, count, Long::sum)));
            return total;
        }
    }

    private final long seed;
    private final Path workDirectory;
    private final PrintStream progress;

    /** The acknowledged units after which the first child is killed; 0: at a random moment, as the others. */
    private int firstKillAfterUnits;
    /** What the children do between kills. */
    private KillWorkload.Kind workload = KillWorkload.Kind.MIXED;

    KillCampaign(long seed, Path workDirectory, PrintStream progress) {
        this.seed = seed;
        this.workDirectory = workDirectory;
        this.progress = progress;
    }

    /**
     * Kills the first child once it has acknowledged {@code units} units, so the database holds every
     * kind of file (a compressed rowgroup, its dictionary, B+trees of several levels) before the first
     * flips: a short run on a loaded machine otherwise often kills its children before their work.
     */
    KillCampaign firstKillAfterUnits(int units) {
        this.firstKillAfterUnits = units;
        return this;
    }

    /** The children do {@code kind} of work (MIXED unless told). */
    KillCampaign workload(KillWorkload.Kind kind) {
        this.workload = kind;
        return this;
    }

    Result run(int kills, int flips) throws IOException {
        long started = System.nanoTime();
        BenchDirectories.deleteRecursively(workDirectory);
        Path database = workDirectory.resolve("db");
        Files.createDirectories(workDirectory);
        UnitModel model = new UnitModel();
        long reopensOk = 0;
        long reopensFailed = 0;
        long beforeReady = 0;
        long rowsLost = 0;
        long halfVisible = 0;
        long unexpected = 0;
        long preserved = 0;
        Map<String, Long> overwritten = new TreeMap<>();
        Map<String, Map<FlipOutcome, Long>> flipOutcomes = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        int flipsDone = 0;
        long spilledPages = 0;
        long childrenSpilled = 0;
        for (int kill = 0; kill < kills; kill++) {
            SplittableRandom random = new SplittableRandom(seed ^ (kill * 0x9E3779B97F4A7C15L));
            Path acknowledgements = workDirectory.resolve("ack-" + kill);
            // Most kills land in the work, a random time after the child acknowledged its first unit,
            // whatever its start and its units cost under the machine's load; one in five a random
            // time after its launch, mostly while it starts, opens and recovers the database.
            boolean duringWork = random.nextInt(5) > 0;
            int delay = duringWork ? random.nextInt(MAX_WORK_MILLIS) : random.nextInt(MAX_START_MILLIS);
            ChildJvm child = ChildJvm.of(KillWorkload.class, database, acknowledgements, model.nextUnit(), random.nextLong(),
                    workload.name());
            boolean afterUnits = kill == 0 && firstKillAfterUnits > 0;
            ChildRun run = afterUnits ? child.killWhen(ChildJvm.nth("A ", firstKillAfterUnits))
                    : duringWork ? child.killAfter(line -> line.startsWith("A "), Duration.ofMillis(delay))
                    : child.killAfter(Duration.ofMillis(delay));
            String context = "seed " + seed + ", kill " + kill + (afterUnits ? " at its acknowledged unit " + firstKillAfterUnits
                    : " " + delay + " ms after " + (duringWork ? "its first acknowledged unit" : "its launch"));
            if (!run.killed() || !run.lines().stream().allMatch(line -> line.equals("opened") || line.equals("ready")
                    || line.startsWith("A ") || line.startsWith("S "))) {
                failures.add(context + ": the child failed before it was killed: " + run.lines());
                progress.println("  FAILURE " + failures.getLast());
                break;
            }
            if (!run.lines().contains("ready")) {
                beforeReady++;
            }
            // A LARGE child's last "S" line: the pages its transactions spilled in all.
            long childSpilled = run.lines().stream().filter(line -> line.startsWith("S "))
                    .mapToLong(line -> Long.parseLong(line.substring(2))).max().orElse(0);
            spilledPages += childSpilled;
            childrenSpilled += childSpilled > 0 ? 1 : 0;
            UnitModel.Step inFlight = model.apply(AckFile.read(acknowledgements));
            // A child killed before it created the database leaves no log to flip.
            int flipsNow = hasLog(database)
                    ? Math.min(flips - flipsDone, (flips - flipsDone + kills - kill - 1) / (kills - kill)) : 0;
            for (int flip = 0; flip < flipsNow; flip++, flipsDone++) {
                FlipVerdict verdict = flipAfterCrash(database, model, inFlight, flipsDone, random);
                flipOutcomes.computeIfAbsent(verdict.kind(), key -> new EnumMap<>(FlipOutcome.class))
                        .merge(verdict.outcome(), 1L, Long::sum);
                if (verdict.preserved()) {
                    preserved++;
                } else if (verdict.outcome() == FlipOutcome.SAME_ANSWERS && !verdict.kind().equals(CrashFlipTargets.WAL)) {
                    overwritten.merge(verdict.kind(), 1L, Long::sum);
                }
                boolean failed = verdict.outcome() == FlipOutcome.SILENTLY_WRONG
                        || verdict.outcome() == FlipOutcome.INTERNAL_ERROR || verdict.outcome() == FlipOutcome.HANG
                        || (!verdict.preserved() && (verdict.outcome() != FlipOutcome.SAME_ANSWERS
                                || verdict.kind().equals(CrashFlipTargets.WAL)))
                        || (CrashFlipTargets.CHECKSUMMED.contains(verdict.kind())
                                && verdict.outcome() != FlipOutcome.DETECTED_NAMED);
                if (failed) {
                    failures.add(context + ", flip " + flipsDone + ": " + verdict.line());
                    progress.println("  FAILURE " + failures.getLast());
                }
            }
            try (Connection connection = DriverManager.getConnection("jdbc:columba:" + database)) {
                UnitModel.Check check = model.check(connection, inFlight);
                reopensOk++;
                rowsLost += check.rowsLost();
                halfVisible += check.halfVisible();
                unexpected += check.unexpected();
                if (!check.clean()) {
                    failures.add(context + ": " + check.problems());
                    progress.println("  FAILURE " + failures.getLast());
                }
            } catch (SQLException | RuntimeException e) {
                reopensFailed++;
                failures.add(context + ": reopening failed: " + e);
                progress.println("  FAILURE " + failures.getLast());
                break;
            }
            if ((kill + 1) % 10 == 0 || kill + 1 == kills) {
                progress.println("  " + (kill + 1) + " kills, " + model.acknowledged() + " units acknowledged, "
                        + flipsDone + " flips, " + failures.size() + " failures");
            }
        }
        return new Result(seed, workload, kills, reopensOk, reopensFailed, beforeReady, model.acknowledged(), rowsLost, halfVisible,
                unexpected, flipOutcomes, preserved, overwritten, spilledPages, childrenSpilled, failures, System.nanoTime() - started);
    }

    private static boolean hasLog(Path database) throws IOException {
        Path log = database.resolve("wal");
        if (!Files.isDirectory(log)) {
            return false;
        }
        try (Stream<Path> files = Files.list(log)) {
            return files.anyMatch(file -> file.getFileName().toString().endsWith(".wal"));
        }
    }

    record FlipVerdict(String kind, String file, long offset, int mask, FlipOutcome outcome, boolean preserved,
                       String detail) {
        String line() {
            return kind + ", " + file + " offset " + offset + " mask 0x" + Integer.toHexString(mask) + ": " + outcome
                    + (preserved ? "" : ", the damaged bytes are gone") + (detail.isEmpty() ? "" : " (" + detail + ")");
        }
    }

    /** One bit flipped in a file of a copy of the crashed database, which is then opened and checked. */
    private FlipVerdict flipAfterCrash(Path database, UnitModel model, UnitModel.Step inFlight, int index,
                                       SplittableRandom random) throws IOException {
        Path copy = workDirectory.resolve("flip");
        BenchDirectories.deleteRecursively(copy);
        FileDamageCampaign.copyRecursively(database, copy);
        CrashFlipTargets.Target target = CrashFlipTargets.choose(copy, index, random);
        Path file = copy.resolve(target.file());
        long offset = target.offset();
        int mask = 1 << random.nextInt(8);
        byte[] bytes = Files.readAllBytes(file);
        bytes[(int) offset] ^= (byte) mask;
        Files.write(file, bytes);
        String name = copy.relativize(file).toString();
        // A scratch model: what the flipped copy shows must not change what the real database is held to.
        UnitModel scratch = model.copy();
        ExecutorService worker = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "crash-flip-" + index);
            thread.setDaemon(true);
            return thread;
        });
        FlipOutcome outcome;
        String detail;
        Future<UnitModel.Check> opened = worker.submit(() -> {
            try (Connection connection = DriverManager.getConnection("jdbc:columba:" + copy)) {
                return scratch.check(connection, inFlight);
            }
        });
        try {
            UnitModel.Check check = opened.get(OPEN_SECONDS, TimeUnit.SECONDS);
            outcome = check.clean() ? FlipOutcome.SAME_ANSWERS : FlipOutcome.SILENTLY_WRONG;
            detail = check.clean() ? "" : check.problems().toString();
        } catch (TimeoutException e) {
            opened.cancel(true);
            outcome = FlipOutcome.HANG;
            detail = "no answer in " + OPEN_SECONDS + " s";
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SQLException failure && !"XX000".equals(failure.getSQLState())) {
                outcome = String.valueOf(failure.getMessage()).contains(file.getFileName().toString())
                        ? FlipOutcome.DETECTED_NAMED : FlipOutcome.DETECTED;
                detail = failure.getSQLState() + " " + failure.getMessage();
            } else {
                outcome = FlipOutcome.INTERNAL_ERROR;
                detail = String.valueOf(cause);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } finally {
            worker.shutdownNow();
        }
        boolean pageOfDataFile = target.kind().startsWith("data page:");
        return new FlipVerdict(target.kind(), name, offset, mask, outcome,
                stillThere(copy, file, bytes, pageOfDataFile ? offset - offset % PageFormat.PAGE_SIZE : -1),
                detail.replace('\n', ' '));
    }

    /**
     * Whether the flipped file's bytes {@code damaged} still exist after the open: in the file itself
     * (for a data file, whose other pages recovery writes, the flipped page {@code pageStart}), whole
     * in the {@code damaged/} folder, or as what the file still holds up to some offset k followed by
     * the piece {@code <name>.tail-<k>} recovery cut from there and kept.
     */
    static boolean stillThere(Path database, Path file, byte[] damaged, long pageStart) throws IOException {
        byte[] now = Files.exists(file) ? Files.readAllBytes(file) : new byte[0];
        if (Arrays.equals(now, damaged)) {
            return true;
        }
        if (pageStart >= 0 && now.length >= pageStart + PageFormat.PAGE_SIZE && Arrays.equals(
                now, (int) pageStart, (int) pageStart + PageFormat.PAGE_SIZE,
                damaged, (int) pageStart, (int) pageStart + PageFormat.PAGE_SIZE)) {
            return true;
        }
        Path folder = database.resolve("damaged");
        if (!Files.isDirectory(folder)) {
            return false;
        }
        String tailPrefix = file.getFileName() + ".tail-";
        try (Stream<Path> walk = Files.walk(folder)) {
            for (Path kept : walk.filter(Files::isRegularFile).toList()) {
                byte[] bytes = Files.readAllBytes(kept);
                if (Arrays.equals(bytes, damaged)) {
                    return true;
                }
                String name = kept.getFileName().toString();
                if (name.startsWith(tailPrefix)) {
                    int cut = Integer.parseInt(name.substring(tailPrefix.length()));
                    if (cut + bytes.length == damaged.length && cut <= now.length
                            && Arrays.equals(now, 0, cut, damaged, 0, cut)
                            && Arrays.equals(bytes, 0, bytes.length, damaged, cut, damaged.length)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}

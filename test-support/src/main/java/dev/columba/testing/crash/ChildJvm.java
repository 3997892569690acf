package dev.columba.testing.crash;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A {@code main} class run in a child JVM on this JVM's class path and killed with SIGKILL, the way
 * a power cut or the OOM killer ends a database process: no shutdown hook, no finally block, no
 * buffered write reaches the file system afterwards. The kill comes when the child prints a chosen
 * line ({@link #killWhen}) or after a delay ({@link #killAfter}); the caller then reopens the
 * database and checks what survived.
 *
 * <p>The child's output is read on a thread of its own and the kill is sent from there the moment
 * the line arrives, so the child is at most a pipe buffer ahead of what the parent saw. Lines a
 * child prints after a {@code println} returned may be lost with it; a child that must prove a unit
 * of work returned writes it to an {@link AckFile} before going on.
 */
public final class ChildJvm {
    /** What the engine needs of a JVM, as the launchers pass it (native access, Arrow and Netty's memory access). */
    public static final List<String> ENGINE_OPTIONS = List.of("--enable-native-access=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
            "-Dio.netty.noUnsafe=false");
    /** How long a child may take to die once killed, or to reach its kill line: far above any run seen. */
    private static final Duration LIMIT = Duration.ofMinutes(5);

    private final String mainClass;
    private final List<String> arguments;
    private final List<String> jvmOptions;

    private ChildJvm(String mainClass, List<String> arguments, List<String> jvmOptions) {
        this.mainClass = mainClass;
        this.arguments = List.copyOf(arguments);
        this.jvmOptions = List.copyOf(jvmOptions);
    }

    /** {@code mainClass} with {@code arguments} (each turned into a string), under {@link #ENGINE_OPTIONS}. */
    public static ChildJvm of(Class<?> mainClass, Object... arguments) {
        List<String> texts = new ArrayList<>();
        for (Object argument : arguments) {
            texts.add(String.valueOf(argument));
        }
        return new ChildJvm(mainClass.getName(), texts, ENGINE_OPTIONS);
    }

    /** This child with {@code options} added to its JVM's options (heap size, system properties). */
    public ChildJvm withJvmOptions(String... options) {
        List<String> all = new ArrayList<>(jvmOptions);
        all.addAll(List.of(options));
        return new ChildJvm(mainClass, arguments, all);
    }

    /** A line test that is true on the {@code count}-th line starting with {@code prefix}: "kill after n commits". */
    public static Predicate<String> nth(String prefix, int count) {
        int[] seen = {0};
        return line -> line.startsWith(prefix) && ++seen[0] >= count;
    }

    /** Runs the child and kills it as soon as it prints a line {@code trigger} accepts; if it never does, it runs to its end. */
    public ChildRun killWhen(Predicate<String> trigger) {
        return run(trigger, LIMIT);
    }

    /** Runs the child and kills it {@code delay} after it was started, wherever it is then (starting, recovering, working). */
    public ChildRun killAfter(Duration delay) {
        return run(line -> false, null, delay);
    }

    /**
     * Runs the child and kills it {@code delay} after it printed a line {@code clockStart} accepts
     * ("ready": a random moment of its work, whatever the machine's load made its start cost); if it
     * never prints one, it runs to its end.
     */
    public ChildRun killAfter(Predicate<String> clockStart, Duration delay) {
        return run(line -> false, clockStart, delay);
    }

    private ChildRun run(Predicate<String> trigger, Duration killAfter) {
        return run(trigger, null, killAfter);
    }

    private ChildRun run(Predicate<String> trigger, Predicate<String> clockStart, Duration killAfter) {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(arguments);
        Process child;
        try {
            child = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a child JVM for " + mainClass, e);
        }
        List<String> lines = new ArrayList<>();
        boolean[] killed = {false};
        CountDownLatch clockStarted = new CountDownLatch(clockStart == null ? 0 : 1);
        Thread reader = Thread.ofPlatform().daemon().name("child-output-" + child.pid()).start(() -> {
            try (BufferedReader output = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = output.readLine()) != null) {
                    if (line.startsWith("WARNING")) {
                        continue; // the JVM's warnings about native and Unsafe access
                    }
                    synchronized (lines) {
                        lines.add(line);
                        if (!killed[0] && trigger.test(line)) {
                            killed[0] = kill(child);
                        }
                    }
                    if (clockStart != null && clockStarted.getCount() > 0 && clockStart.test(line)) {
                        clockStarted.countDown();
                    }
                }
            } catch (IOException e) {
                // The pipe broke because the child died: what was read is what there is.
            }
        });
        try {
            long deadline = System.nanoTime() + LIMIT.toNanos();
            while (!clockStarted.await(20, TimeUnit.MILLISECONDS) && reader.isAlive() && System.nanoTime() < deadline) {
                // Waiting for the line that starts the clock, or for the child's end.
            }
            reader.join(killAfter);
            synchronized (lines) {
                // A child whose output ended is exiting by itself: only one still talking is killed by time.
                if (!killed[0] && reader.isAlive()) {
                    killed[0] = kill(child);
                }
            }
            if (!child.waitFor(LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
                kill(child);
                throw new AssertionError("child " + mainClass + " did not end within " + LIMIT + ": " + snapshot(lines));
            }
            reader.join(LIMIT);
        } catch (InterruptedException e) {
            kill(child);
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while a child JVM ran", e);
        }
        synchronized (lines) {
            return new ChildRun(lines, killed[0], child.exitValue());
        }
    }

    /** SIGKILL through the handle: {@code Process.destroyForcibly} would also close the pipe still being read. */
    private static boolean kill(Process child) {
        return child.toHandle().destroyForcibly();
    }

    private static List<String> snapshot(List<String> lines) {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }
}

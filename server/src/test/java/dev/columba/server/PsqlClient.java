package dev.columba.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The real psql, run against a test server with the environment's PG* settings removed and no psqlrc. */
final class PsqlClient {
    private final Path psql;
    private final int port;
    private final Path scratch;

    private PsqlClient(Path psql, int port, Path scratch) {
        this.psql = psql;
        this.port = port;
        this.scratch = scratch;
    }

    /** psql's exit code, standard output and standard error. */
    record Run(int exitCode, String out, String err) {
    }

    /** A client of the server on {@code port}, or null when psql is not on the PATH. */
    static PsqlClient find(int port, Path scratch) {
        for (String folder : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(folder, "psql");
            if (Files.isExecutable(candidate)) {
                return new PsqlClient(candidate, port, scratch);
            }
        }
        return null;
    }

    static boolean installed() {
        return find(0, Path.of(".")) != null;
    }

    /** Runs {@code psql -X <options> -h 127.0.0.1 -p port -U tester -d db -c command}. */
    Run run(List<String> options, String command) throws IOException, InterruptedException {
        return run("tester", Map.of(), options, command);
    }

    /** Runs psql as {@code user}, with {@code settings} (PGPASSWORD, PGSSLMODE...) in its environment. */
    Run run(String user, Map<String, String> settings, List<String> options, String command)
            throws IOException, InterruptedException {
        List<String> arguments = new ArrayList<>(List.of(psql.toString(), "-X", "-w"));
        arguments.addAll(options);
        arguments.addAll(List.of("-h", "127.0.0.1", "-p", Integer.toString(port), "-U", user, "-d", "db", "-c", command));
        ProcessBuilder builder = new ProcessBuilder(arguments);
        Map<String, String> environment = builder.environment();
        environment.keySet().removeIf(name -> name.startsWith("PG"));
        environment.putAll(settings);
        environment.put("PGCONNECT_TIMEOUT", "20");
        environment.put("PAGER", "");
        environment.put("COLUMNS", "200");
        Path out = Files.createTempFile(scratch, "psql", ".out");
        Path err = Files.createTempFile(scratch, "psql", ".err");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(process.waitFor(2, TimeUnit.MINUTES), "psql did not finish");
        return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}

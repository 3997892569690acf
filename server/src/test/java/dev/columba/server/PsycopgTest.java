package dev.columba.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real psycopg 3 against the server. {@code psycopg_basics.py}: connect, create, insert and select with
 * parameters of every common type in text and binary, errors and recovery, transactions rolled back and failed,
 * a long query cancelled from another thread, COPY in and out. {@code psycopg_cursors.py}: named cursors (DECLARE through the extended protocol, Describe of the
 * cursor's portal, FETCH FORWARD per {@code itersize}, WITH HOLD, binary, scroll) and {@code information_schema}
 * queries with parameters. The scripts are beside this class.
 *
 * <p>Python with psycopg is taken from the environment variable {@code COLUMBA_TEST_PYTHON} (a venv's python, say),
 * else {@code python3} on the PATH; without one that imports psycopg the test is skipped with a message, as the psql
 * tests are without psql.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PsycopgTest {
    @TempDir
    Path directory;

    @Test
    void anApplicationsFirstStepsWorkFromPsycopg() throws Exception {
        runScript("psycopg_basics.py", "basics");
    }

    @Test
    void namedCursorsAndInformationSchemaWorkFromPsycopg() throws Exception {
        runScript("psycopg_cursors.py", "shop");
    }

    private void runScript(String name, String database) throws Exception {
        String python = System.getenv().getOrDefault("COLUMBA_TEST_PYTHON", "python3");
        Assumptions.assumeTrue(importsPsycopg(python), "no Python with psycopg (" + python
                + "): set COLUMBA_TEST_PYTHON to one to run this test");
        Path script = directory.resolve(name);
        try (InputStream resource = PsycopgTest.class.getResourceAsStream(name)) {
            Files.copy(resource, script);
        }
        try (PgServer server = PgServer.start(ServerConfig.of(directory.resolve(database)).withPort(0))) {
            Process process = new ProcessBuilder(python, script.toString(), Integer.toString(server.port()))
                    .redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(3, TimeUnit.MINUTES), output);
            System.out.println(output);
            assertEquals(0, process.exitValue(), output);
            assertTrue(output.strip().endsWith("done"), output);
        }
    }

    private static boolean importsPsycopg(String python) throws InterruptedException {
        try {
            Process process = new ProcessBuilder(List.of(python, "-c", "import psycopg")).redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            return process.waitFor(1, TimeUnit.MINUTES) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }
}

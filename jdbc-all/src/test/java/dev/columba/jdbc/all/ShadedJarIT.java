package dev.columba.jdbc.all;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one-jar driver as an application uses it: a plain Java program with nothing but that jar on
 * its class path (and the JVM options the README states) creates tables of both storage kinds,
 * loads them and answers a join.
 */
class ShadedJarIT {
    @TempDir
    Path directory;

    private static Path jar() {
        Path jar = Path.of(System.getProperty("columba.shadedJar", "target/missing.jar"));
        assertTrue(Files.isRegularFile(jar), "the shaded jar is built before this test: " + jar);
        return jar;
    }

    @Test
    void aPlainProgramWithOnlyTheJarAnswersAQuery() throws Exception {
        Path program = directory.resolve("Plain.java");
        Files.writeString(program, """
                import java.sql.*;
                public class Plain {
                    public static void main(String[] args) throws Exception {
                        try (Connection c = DriverManager.getConnection("jdbc:columba:" + args[0]);
                             Statement s = c.createStatement()) {
                            s.execute("CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20))");
                            s.execute("INSERT INTO t VALUES (1, 'one'), (2, 'two')");
                            s.execute("CREATE TABLE c (id BIGINT, v DECIMAL(10, 2)) WITH (storage = columnstore)");
                            s.execute("INSERT INTO c SELECT generate_series, generate_series / 4.0 FROM generate_series(1, 1000)");
                            try (ResultSet r = s.executeQuery(
                                    "SELECT t.name, SUM(c.v) FROM t JOIN c ON c.id = t.id GROUP BY t.name ORDER BY t.name")) {
                                while (r.next()) {
                                    System.out.println(r.getString(1) + " " + r.getBigDecimal(2));
                                }
                            }
                        }
                    }
                }
                """);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // The options the README states for a program embedding the driver; nothing else on the class path.
        ProcessBuilder builder = new ProcessBuilder(java, "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", "-Dio.netty.noUnsafe=false",
                "-cp", jar().toString(), program.toString(), directory.resolve("db").toString());
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("CLASSPATH");
        Path output = directory.resolve("output.txt");
        Path errors = directory.resolve("errors.txt");
        Process process = builder.redirectOutput(output.toFile()).redirectError(errors.toFile()).start();
        assertTrue(process.waitFor(180, TimeUnit.SECONDS), "the program finished");
        String stderr = Files.readString(errors, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), stderr);
        assertEquals("one 0.25\ntwo 0.50\n", Files.readString(output, StandardCharsets.UTF_8));
        assertFalse(stderr.contains("SLF4J"), "no logging warning reaches the application: " + stderr);
    }

    @Test
    void everyLibraryClassIsMovedUnderTheShadedPackage() throws IOException {
        List<String> outside = new ArrayList<>();
        try (JarFile jar = new JarFile(jar().toFile())) {
            for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements();) {
                String name = entries.nextElement().getName();
                if (name.endsWith(".class") && !name.startsWith("dev/columba/") && !name.startsWith("META-INF/")
                        // zstd-jni's native library binds to its own class names, so it keeps them.
                        && !name.startsWith("com/github/luben/zstd/")) {
                    outside.add(name);
                }
            }
            assertTrue(jar.getManifest().getMainAttributes().getValue("Automatic-Module-Name").equals("dev.columba.jdbc.all"));
            assertTrue(jar.getJarEntry("META-INF/services/java.sql.Driver") != null, "DriverManager finds the driver");
        }
        assertEquals(List.of(), outside.subList(0, Math.min(20, outside.size())), outside.size() + " classes outside");
    }
}

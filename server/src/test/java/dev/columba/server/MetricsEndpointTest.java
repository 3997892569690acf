package dev.columba.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code --metrics-port}: a Prometheus scrape of the server shows what its clients' statements did. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MetricsEndpointTest {
    @TempDir
    Path directory;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aScrapeCountsTheClientsStatementsAndReads() throws Exception {
        try (PgServer server = PgServer.start(ServerConfig.of(directory.resolve("shop")).withPort(0).withMetricsPort(0))) {
            int metricsPort = server.metricsPort().orElseThrow();
            try (Connection connection = DriverManager.getConnection(
                    "jdbc:postgresql://127.0.0.1:" + server.port() + "/columba", "tester", "");
                 Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20))");
                statement.execute("INSERT INTO t SELECT generate_series, 'row' FROM generate_series(1, 2000)");
                String before = scrape(metricsPort);
                assertEquals(1.0, value(before, "columba_server_connections"), before);
                try (ResultSet rows = statement.executeQuery("SELECT COUNT(name) FROM t")) {
                    assertTrue(rows.next());
                    assertEquals(2000, rows.getLong(1));
                }
                try (ResultSet rows = statement.executeQuery("SELECT name FROM t WHERE id = 7")) {
                    assertTrue(rows.next());
                }
                String after = scrape(metricsPort);
                assertEquals(2.0, value(after, "columba_statements_total{database=\"shop\"}")
                        - value(before, "columba_statements_total{database=\"shop\"}"), after);
                String logical = "columba_pages_read_pages_total{database=\"shop\",kind=\"logical\"}";
                assertTrue(value(after, logical) > value(before, logical), after);
                assertTrue(after.contains("jvm_memory_used_bytes"), "the JVM's meters too");
            }
            HttpResponse<String> other = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + metricsPort + "/other")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(404, other.statusCode());
        }
    }

    private String scrape(int port) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + MetricsEndpoint.PATH)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
        return response.body();
    }

    /** The value of the sample whose name and labels start with {@code series} (labels in Prometheus's order). */
    private static double value(String exposition, String series) {
        Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(series) + "[ ,}]?.*? ([0-9.eE+-]+)$").matcher(exposition);
        assertTrue(matcher.find(), series + " in\n" + exposition);
        return Double.parseDouble(matcher.group(1));
    }
}

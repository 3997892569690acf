package dev.columba.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.columba.jdbc.ColumbaConnection;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Executors;
import java.util.function.IntSupplier;

/**
 * Prometheus metrics over HTTP: {@code GET /metrics} answers the text exposition format of a
 * Micrometer registry holding the engine's meters (buffer pool, read-ahead, statements, plans,
 * commits, log syncs, events: the driver's {@code bindMetrics}), the JVM's (memory, garbage
 * collection, threads, processor) and the server's own (client connections). It is served by the
 * JDK's built-in HTTP server on one thread of its own: scrapes are rare and cheap, and the wire
 * protocol's event loops never see HTTP.
 */
final class MetricsEndpoint implements AutoCloseable {
    static final String PATH = "/metrics";
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer http;
    private final PrometheusMeterRegistry registry;
    private final JvmGcMetrics gc;

    private MetricsEndpoint(HttpServer http, PrometheusMeterRegistry registry, JvmGcMetrics gc) {
        this.http = http;
        this.registry = registry;
        this.gc = gc;
    }

    /**
     * Binds the meters and starts serving on {@code host:port} (0 picks a free port).
     *
     * @param keeper       the server's own connection, through which the engine's meters are bound
     * @param database     the {@code database} tag of the engine's meters
     * @param connections  the client connections open now
     */
    static MetricsEndpoint start(String host, int port, Connection keeper, String database, IntSupplier connections)
            throws SQLException, IOException {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        keeper.unwrap(ColumbaConnection.class).bindMetrics(registry, database);
        Gauge.builder("columba.server.connections", connections, IntSupplier::getAsInt)
                .description("client connections open now").strongReference(true).register(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(registry);
        HttpServer http;
        try {
            http = HttpServer.create(new InetSocketAddress(host, port), 0);
        } catch (IOException e) {
            gc.close();
            registry.close();
            throw e;
        }
        http.setExecutor(Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "columba-metrics-http");
            thread.setDaemon(true);
            return thread;
        }));
        MetricsEndpoint endpoint = new MetricsEndpoint(http, registry, gc);
        http.createContext(PATH, endpoint::answer);
        http.start();
        return endpoint;
    }

    /** The port serving {@code /metrics}. */
    int port() {
        return http.getAddress().getPort();
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            if (!exchange.getRequestURI().getPath().equals(PATH)) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            if (exchange.getRequestMethod().equals("HEAD")) {
                exchange.sendResponseHeaders(200, -1);
                return;
            }
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        http.stop(0);
        ((java.util.concurrent.ExecutorService) http.getExecutor()).shutdownNow();
        gc.close();
        registry.close();
    }
}

package dev.columba.trino;

import dev.columba.jdbc.ColumbaDriver;
import dev.columba.storage.db.ControlFile;
import io.airlift.log.Level;
import io.airlift.log.Logging;
import io.trino.Session;
import io.trino.spi.Plugin;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.TestingSession;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

/**
 * {@code ./columba trino}: a Trino cluster inside one JVM (a coordinator and N workers talking HTTP,
 * Trino's {@link DistributedQueryRunner}) with the Columba connector over one database directory, for
 * trying the connector without installing Trino. It is the same harness the connector's tests use,
 * which is why it lives with them: the cluster needs {@code trino-main} and {@code trino-testing}, which
 * the plugin itself must not depend on. Not a deployment: a real Trino server loads the plugin from its
 * plugin directory (docs/design/trino.md).
 *
 * <p>Without {@code -c} it serves until interrupted; clients connect to the URL it prints (the Trino
 * CLI: {@code ./columba trino-cli --server <url>}). With {@code -c} it runs the statements, prints their
 * rows tab-separated and stops.
 */
@Command(name = "columba trino", mixinStandardHelpOptions = true, versionProvider = LocalTrino.Version.class, sortOptions = false,
        description = "Starts a Trino cluster in this JVM with the Columba connector over a database directory.")
public final class LocalTrino implements Callable<Integer> {
    static final String CATALOG = "columba";

    @Parameters(index = "0", paramLabel = "<dir>", description = "the Columba database directory to read (it must exist)")
    Path directory;

    @Option(names = "--workers", paramLabel = "N", defaultValue = "2",
            description = "worker nodes besides the coordinator, which schedules no splits (default: ${DEFAULT-VALUE}; 0 lets the coordinator work alone)")
    int workers;

    @Option(names = "--port", paramLabel = "P",
            description = "the coordinator's HTTP port (default 8080; with -c a free one)")
    Integer port;

    @Option(names = "--schema", paramLabel = "NAME",
            description = "the schema the catalog shows the tables in (default: the directory's name in lower case)")
    String schema;

    @Option(names = {"-c", "--execute"}, paramLabel = "SQL",
            description = "run this statement (repeatable), print its rows tab-separated, then stop")
    List<String> statements = new ArrayList<>();

    @Option(names = "--verbose", description = "Trino's INFO log on the console (it is quiet by default)")
    boolean verbose;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(new CommandLine(new LocalTrino()).execute(args));
    }

    /** {@code --version}: Columba's and the Trino version the connector is built against. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"columba " + ColumbaDriver.version() + " with Trino " + Plugin.class.getPackage().getImplementationVersion()
                    + " (Java " + Runtime.version() + ")"};
        }
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!Files.isDirectory(directory) || !ControlFile.exists(directory)) {
            // Checked before a cluster starts, which takes seconds; the connector never creates a database.
            err.println("columba trino: " + directory + " is not a Columba database directory");
            return 2;
        }
        if (workers < 0) {
            err.println("columba trino: --workers must be 0 or more, not " + workers);
            return 2;
        }
        if (!verbose) {
            // A user trying queries wants the answers, not Trino's start-up log (Airlift's, over java.util.logging).
            Logging.initialize().setRootLevel(Level.WARN);
        }
        Map<String, String> catalog = new HashMap<>();
        catalog.put(ColumbaConfig.DATABASE_DIRECTORY, directory.toString());
        if (schema != null) {
            catalog.put(ColumbaConfig.SCHEMA_NAME, schema);
        }
        // The schema the session starts in is the catalog's: parsing the catalog's properties says which.
        String schemaName = ColumbaConfig.parse(catalog).schemaName();
        Session session = TestingSession.testSessionBuilder().setCatalog(CATALOG).setSchema(schemaName).build();
        int httpPort = port != null ? port : statements.isEmpty() ? 8080 : 0;
        DistributedQueryRunner trino = DistributedQueryRunner.builder(session)
                .setWorkerCount(workers)
                .addCoordinatorProperty("http-server.http.port", Integer.toString(httpPort))
                .addCoordinatorProperty("node-scheduler.include-coordinator", Boolean.toString(workers == 0))
                .build();
        try {
            trino.installPlugin(new ColumbaPlugin());
            trino.createCatalog(CATALOG, CATALOG, catalog);
            if (!statements.isEmpty()) {
                return execute(trino, out, err);
            }
            out.printf("Trino 483 at %s: a coordinator and %d worker%s in this JVM, catalog %s, schema %s.%n",
                    trino.getCoordinator().getBaseUrl(), workers, workers == 1 ? "" : "s", CATALOG, schemaName);
            out.printf("Connect with: ./columba trino-cli --server %s --catalog %s --schema %s%n",
                    trino.getCoordinator().getBaseUrl(), CATALOG, schemaName);
            out.println("Ctrl-C stops it.");
            out.flush();
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                trino.close();
                stopped.countDown();
            }, "columba-trino-stop"));
            stopped.await();
            return 0;
        } finally {
            if (!statements.isEmpty()) {
                trino.close();
            }
        }
    }

    private int execute(DistributedQueryRunner trino, PrintWriter out, PrintWriter err) {
        for (String sql : statements) {
            MaterializedResult result;
            try {
                result = trino.execute(sql);
            } catch (RuntimeException e) {
                err.println("columba trino: " + sql + ": " + e.getMessage());
                return 1;
            }
            out.println(String.join("\t", result.getColumnNames()));
            for (MaterializedRow row : result.getMaterializedRows()) {
                out.println(row.getFields().stream().map(String::valueOf).collect(Collectors.joining("\t")));
            }
            out.flush();
        }
        return 0;
    }
}

package dev.columba.server;

import dev.columba.jdbc.ColumbaDriver;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code columba server <dir> [--port N] [--host ADDR] [--auth trust|scram] [--password P]
 * [--tls-keystore FILE --tls-keystore-password P [--require-tls]] [--max-connections N] [--metrics-port N]}.
 */
@Command(name = "columba server", mixinStandardHelpOptions = true, versionProvider = ServerMain.Version.class,
        description = "Serves one database directory over the PostgreSQL wire protocol (v3) until the process is stopped.",
        footer = {"",
            "Authentication: on a loopback address clients are trusted unless --auth scram or --password is given;",
            "on any other address SCRAM-SHA-256 is required, against the logins the database holds",
            "(CREATE LOGIN name WITH PASSWORD = '...', listed in sys.server_principals) and, for user names without",
            "a login, against --password. SCRAM with neither a login nor --password refuses to start.",
            "TLS: with --tls-keystore (PKCS12, e.g. keytool -genkeypair -storetype PKCS12) an SSLRequest is answered",
            "with TLS (psql/pgJDBC sslmode=require); without it, clients are told the server has no TLS.",
            "Exit codes: 0 stopped, 1 the database or the address could not be opened, 2 bad usage."})
public final class ServerMain implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<dir>", description = "the database directory to serve (created if missing)")
    private Path database;

    @Option(names = "--port", paramLabel = "N", defaultValue = "" + ServerConfig.DEFAULT_PORT,
            description = "TCP port (0 for any free one); default ${DEFAULT-VALUE}")
    private int port;

    @Option(names = {"--host", "--listen"}, paramLabel = "ADDR", defaultValue = ServerConfig.DEFAULT_HOST,
            description = "address to listen on; default ${DEFAULT-VALUE}")
    private String host;

    @Option(names = "--auth", paramLabel = "METHOD", description = "trust or scram; default: trust on a loopback"
            + " address (without --password), scram elsewhere")
    private ServerConfig.Authentication authentication;

    @Option(names = "--password", paramLabel = "P", description = "the password of every user name that has no login"
            + " of its own (checked by SCRAM-SHA-256); implies --auth scram")
    private String password;

    @Option(names = "--tls-keystore", paramLabel = "FILE", description = "PKCS12 key store with the server's key and"
            + " certificate: answer SSLRequest with TLS")
    private Path tlsKeyStore;

    @Option(names = "--tls-keystore-password", paramLabel = "P", description = "the key store's password")
    private String tlsKeyStorePassword;

    @Option(names = "--require-tls", description = "refuse clients that connect from another machine without TLS"
            + " (loopback clients may still connect in the clear)")
    private boolean requireTls;

    @Option(names = "--max-connections", paramLabel = "N", defaultValue = "" + ServerConfig.DEFAULT_MAX_CONNECTIONS,
            description = "clients served at once; default ${DEFAULT-VALUE}")
    private int maxConnections;

    @Option(names = "--metrics-port", paramLabel = "N", description = "serve Prometheus metrics at http://<host>:N/metrics"
            + " (0 for any free port); off unless given")
    private Integer metricsPort;

    private final PrintStream out;
    private final PrintStream err;

    private ServerMain(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Starts the server and serves until the process is stopped; returns the exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        CommandLine line = new CommandLine(new ServerMain(out, err));
        line.setOut(new PrintWriter(out, true));
        line.setErr(new PrintWriter(err, true));
        line.setParameterExceptionHandler((problem, arguments) -> {
            err.println("columba server: " + problem.getMessage());
            problem.getCommandLine().usage(err);
            return CommandLine.ExitCode.USAGE;
        });
        return line.execute(args);
    }

    @Override
    public Integer call() throws InterruptedException {
        ServerConfig config;
        try {
            if (tlsKeyStore == null && (tlsKeyStorePassword != null || requireTls)) {
                throw new IllegalArgumentException("--tls-keystore-password and --require-tls need --tls-keystore");
            }
            config = new ServerConfig(database, host, port, Optional.ofNullable(password),
                    authentication != null ? authentication
                            : ServerConfig.defaultAuthentication(host, password != null),
                    tlsKeyStore == null ? Optional.empty() : Optional.of(new ServerConfig.Tls(tlsKeyStore,
                            tlsKeyStorePassword == null ? "" : tlsKeyStorePassword)),
                    requireTls, maxConnections, ServerConfig.DEFAULT_MAX_MESSAGE_LENGTH,
                    metricsPort == null ? ServerConfig.NO_METRICS : metricsPort);
        } catch (IllegalArgumentException e) {
            err.println("columba server: " + e.getMessage());
            return 2;
        }
        PgServer server;
        try {
            server = PgServer.start(config);
        } catch (SQLException e) {
            err.println("columba server: cannot open " + config.database() + ": " + e.getMessage());
            return 1;
        } catch (java.io.UncheckedIOException | IllegalStateException | IllegalArgumentException e) {
            err.println("columba server: " + e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            err.println("columba server: cannot listen on " + config.host() + ":" + config.port() + ": " + e.getMessage());
            return 1;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (SQLException e) {
                System.err.println("columba server: closing the database failed: " + e.getMessage());
            }
        }, "columba-server-shutdown"));
        out.println("Columba server on " + config.host() + ":" + server.port() + " serving " + config.database()
                + (config.authentication() == ServerConfig.Authentication.TRUST ? " (trust: no password)"
                        : " (SCRAM-SHA-256 password required)")
                + (config.tls().isEmpty() ? "" : config.requireTlsRemote() ? ", TLS (required from other machines)"
                        : ", TLS offered"));
        server.metricsPort().ifPresent(metrics ->
                out.println("metrics: http://" + config.host() + ":" + metrics + MetricsEndpoint.PATH));
        out.println("connect: psql -h " + config.host() + " -p " + server.port() + " -U columba"
                + "   or   jdbc:postgresql://" + config.host() + ":" + server.port() + "/columba");
        out.flush();
        server.awaitClose();
        return 0;
    }

    /** The version of the engine, as its driver reports it. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"columba server " + ColumbaDriver.version() + " (Java " + Runtime.version() + ")"};
        }
    }
}

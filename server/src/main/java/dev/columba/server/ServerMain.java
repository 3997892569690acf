package dev.columba.server;

import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;

/** {@code columba server <dir> [--port N] [--host ADDR] [--password P] [--max-connections N]}. */
public final class ServerMain {
    private static final String USAGE = "usage: columba server <dir> [--port 5432] [--host 127.0.0.1]"
            + " [--password PASSWORD] [--max-connections 100]";

    private ServerMain() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    /** Starts the server and serves until the process is stopped; returns an exit code on a usage error. */
    static int run(String[] args, PrintStream out, PrintStream err) throws InterruptedException {
        ServerConfig config;
        try {
            config = parse(args);
        } catch (IllegalArgumentException e) {
            err.println("columba server: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        if (config == null) {
            out.println(USAGE);
            return 0;
        }
        PgServer server;
        try {
            server = PgServer.start(config);
        } catch (SQLException e) {
            err.println("columba server: cannot open " + config.database() + ": " + e.getMessage());
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
                + (config.password().isPresent() ? " (password required)" : " (trust: no password)"));
        out.println("connect: psql -h " + config.host() + " -p " + server.port() + " -U columba"
                + "   or   jdbc:postgresql://" + config.host() + ":" + server.port() + "/columba");
        out.flush();
        server.awaitClose();
        return 0;
    }

    /** The configuration the arguments give, or null for --help. */
    static ServerConfig parse(String[] args) {
        Path database = null;
        String host = ServerConfig.DEFAULT_HOST;
        int port = ServerConfig.DEFAULT_PORT;
        String password = null;
        int maxConnections = ServerConfig.DEFAULT_MAX_CONNECTIONS;
        for (int index = 0; index < args.length; index++) {
            String argument = args[index];
            switch (argument) {
                case "--help", "-h" -> {
                    return null;
                }
                case "--port" -> port = integer(argument, value(args, ++index, argument));
                case "--host", "--listen" -> host = value(args, ++index, argument);
                case "--password" -> password = value(args, ++index, argument);
                case "--max-connections" -> maxConnections = integer(argument, value(args, ++index, argument));
                default -> {
                    if (argument.startsWith("-")) {
                        throw new IllegalArgumentException("unknown option '" + argument + "'");
                    }
                    if (database != null) {
                        throw new IllegalArgumentException("one database directory only, got " + database + " and " + argument);
                    }
                    database = Path.of(argument);
                }
            }
        }
        if (database == null) {
            throw new IllegalArgumentException("name the database directory to serve");
        }
        return new ServerConfig(database, host, port, java.util.Optional.ofNullable(password), maxConnections,
                ServerConfig.DEFAULT_MAX_MESSAGE_LENGTH);
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }

    private static int integer(String option, String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs a number, got '" + text + "'");
        }
    }
}

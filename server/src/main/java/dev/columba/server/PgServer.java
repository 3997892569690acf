package dev.columba.server;

import dev.columba.core.auth.ScramVerifier;
import dev.columba.jdbc.ColumbaConnection;
import dev.columba.server.protocol.PgDecoder;
import dev.columba.server.protocol.PgEncoder;
import dev.columba.server.session.CancelKeys;
import dev.columba.server.session.SessionConfig;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.security.SecureRandom;
import java.util.Optional;
import io.netty.handler.ssl.SslContext;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A PostgreSQL wire-protocol server for one Columba database. One Netty event loop accepts connections; each
 * client connection gets an event loop of its own (see {@link SessionLoops}), which frames and decodes its bytes
 * and runs its {@link dev.columba.server.session.ClientSession} over its own embedded JDBC connection
 * ({@code jdbc:columba:<dir>}), so a long query holds that connection's thread and nobody else's; the number of
 * connections is bounded. The server keeps one connection of its own open for its lifetime, so
 * the engine stays open between clients. See docs/design/server.md.
 */
public final class PgServer implements AutoCloseable {
    /** The PostgreSQL version reported to clients: the one whose protocol and behaviour this server follows. */
    static final String POSTGRES_VERSION = "15.0";

    private final ServerConfig config;
    private final Connection keeper;
    private final CancelKeys cancelKeys = new CancelKeys();
    private final EventLoopGroup acceptors;
    private final SessionLoops network;
    private final AtomicInteger connections = new AtomicInteger();
    private final Channel listener;
    private final MetricsEndpoint metrics;

    private PgServer(ServerConfig config) throws SQLException, InterruptedException {
        this.config = config;
        String url = "jdbc:columba:" + config.database();
        this.keeper = DriverManager.getConnection(url);
        String version = POSTGRES_VERSION + " (Columba " + keeper.getMetaData().getDatabaseProductVersion() + ")";
        SessionConfig sessions;
        SslContext tls;
        try {
            sessions = new SessionConfig(url, logins(config, keeper), config.requireTlsRemote(), version, cancelKeys);
            tls = config.tls().isPresent() ? TlsContexts.server(config.tls().get()) : null;
        } catch (SQLException | RuntimeException e) {
            keeper.close();
            throw e;
        }
        this.acceptors = new MultiThreadIoEventLoopGroup(1, namedDaemons("columba-pg-accept-"), NioIoHandler.newFactory());
        this.network = new SessionLoops(namedDaemons("columba-pg-session-"));
        try {
            this.listener = new ServerBootstrap()
                    .group(acceptors, network)
                    .channel(NioServerSocketChannel.class)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel channel) {
                            channel.pipeline().addLast(new PgDecoder(config.maxMessageLength()), new PgEncoder(),
                                    new ConnectionHandler(sessions, connections, config.maxConnections(), tls));
                        }
                    })
                    .bind(config.host(), config.port()).sync().channel();
        } catch (Exception e) {
            // Netty's sync() rethrows the bind's java.net.BindException, a checked exception, undeclared.
            shutDownThreads();
            keeper.close();
            if (e instanceof InterruptedException interrupted) {
                throw interrupted;
            }
            if (e instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new UncheckedIOException("cannot listen on " + config.host() + ":" + config.port() + ": "
                    + e.getMessage(), e instanceof IOException io ? io : new IOException(e));
        }
        try {
            this.metrics = config.metricsPort() == ServerConfig.NO_METRICS ? null
                    : MetricsEndpoint.start(config.host(), config.metricsPort(), keeper,
                            config.database().getFileName().toString(), connections::get);
        } catch (IOException e) {
            closeAfterFailedStart();
            throw new UncheckedIOException("cannot serve metrics on " + config.host() + ":" + config.metricsPort() + ": "
                    + e.getMessage(), e);
        } catch (SQLException | RuntimeException e) {
            closeAfterFailedStart();
            throw e;
        }
    }

    /**
     * Where the sessions' SCRAM verifiers come from: the login of the user's name if the database has one
     * (read at each attempt, so CREATE, ALTER and DROP LOGIN take effect for the next connection), else
     * {@code --password}'s, made once here. Trust has none. SCRAM with neither a login nor a password would
     * let no one in, so it refuses to start.
     */
    private static Optional<SessionConfig.Logins> logins(ServerConfig config, Connection keeper) throws SQLException {
        if (config.authentication() == ServerConfig.Authentication.TRUST) {
            return Optional.empty();
        }
        ColumbaConnection catalog = keeper.unwrap(ColumbaConnection.class);
        Optional<ScramVerifier> shared = config.password().map(password -> ScramVerifier.create(password,
                new SecureRandom()));
        if (shared.isEmpty() && catalog.loginCount() == 0) {
            throw new IllegalStateException("SCRAM authentication (required when listening on " + config.host()
                    + ") needs a login, and " + config.database() + " has none: create one with"
                    + " CREATE LOGIN name WITH PASSWORD = '...' (e.g. in ./columba sql " + config.database()
                    + "), or give --password");
        }
        return Optional.of(user -> {
            try {
                Optional<String> stored = catalog.loginVerifier(user);
                return stored.isPresent() ? stored.map(ScramVerifier::parse) : shared;
            } catch (SQLException e) {
                // The catalog cannot be read (the server is closing): nobody gets in.
                return Optional.empty();
            }
        });
    }

    private void closeAfterFailedStart() throws SQLException {
        listener.close().syncUninterruptibly();
        shutDownThreads();
        keeper.close();
    }

    /**
     * Opens the database and starts listening.
     *
     * @throws SQLException when the database cannot be opened
     * @throws io.netty.channel.ChannelException (or another runtime exception) when the address cannot be bound
     */
    public static PgServer start(ServerConfig config) throws SQLException, InterruptedException {
        return new PgServer(config);
    }

    /** The port the server listens on (the one picked when the configuration said 0). */
    public int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    public ServerConfig config() {
        return config;
    }

    /** The HTTP port serving Prometheus metrics at {@code /metrics}, if the configuration asked for them. */
    public java.util.OptionalInt metricsPort() {
        return metrics == null ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(metrics.port());
    }

    /** Client sessions open now. */
    public int sessionCount() {
        return cancelKeys.size();
    }

    /** Blocks until the server is closed. */
    public void awaitClose() throws InterruptedException {
        listener.closeFuture().sync();
    }

    /**
     * Stops listening, closes client connections (their open transactions roll back) and the database. Returns
     * once every client's session has closed its connection to the database (at most {@link #SESSIONS_CLOSE_WAIT_MS}
     * after the network stops), so the directory can be opened again at once, by this process or another.
     */
    @Override
    public void close() throws SQLException {
        listener.close().syncUninterruptibly();
        if (metrics != null) {
            metrics.close();
        }
        shutDownThreads();
        long giveUp = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SESSIONS_CLOSE_WAIT_MS);
        while (connections.get() > 0 && System.nanoTime() < giveUp) {
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        keeper.close();
    }

    /** How long {@link #close} waits for the sessions of the clients it disconnected to close theirs (a statement being cancelled). */
    private static final long SESSIONS_CLOSE_WAIT_MS = 30_000;

    /**
     * Stops accepting, then stops every connection's thread, which closes its channel once the statement it runs
     * returns: running statements are cancelled until every thread has ended (a client may start one more
     * between a cancel and its thread's stop).
     */
    private void shutDownThreads() {
        acceptors.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
        io.netty.util.concurrent.Future<?> stopped = network.shutdownGracefully(0, 5, TimeUnit.SECONDS);
        while (!stopped.awaitUninterruptibly(CANCEL_EVERY_MS)) {
            cancelKeys.cancelAll();
        }
    }

    /** How often {@link #shutDownThreads} cancels the statements still running while it waits. */
    private static final long CANCEL_EVERY_MS = 20;

    private static ThreadFactory namedDaemons(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, prefix + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}

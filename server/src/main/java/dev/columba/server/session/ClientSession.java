package dev.columba.server.session;

import dev.columba.jdbc.ColumbaConnection;
import dev.columba.server.catalog.CatalogQueries;
import dev.columba.server.catalog.CatalogQueryException;
import dev.columba.server.catalog.CatalogResult;
import dev.columba.server.catalog.InformationSchema;
import dev.columba.server.catalog.PgCatalog;
import dev.columba.server.protocol.BackendMessage;
import dev.columba.server.protocol.BackendMessage.Field;
import dev.columba.server.protocol.BackendMessage.Severity;
import dev.columba.server.protocol.BackendMessage.TransactionStatus;
import dev.columba.server.protocol.FrontendMessage;
import dev.columba.server.protocol.FrontendMessage.Format;
import dev.columba.server.protocol.PgTypes;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One client connection's conversation, on top of one embedded Columba JDBC connection.
 *
 * <p>Threading: {@link #handle} is called with one message at a time, in arrival order, on the connection's
 * own thread (statements may run long: they hold no other connection's thread); {@link #cancelRunning} is
 * called from any thread.
 *
 * <p>Transactions: outside a transaction block the connection is in autocommit mode. {@code BEGIN} turns
 * autocommit off and opens a block (status {@code T}); an error inside it marks it failed (status {@code E},
 * Columba has rolled the transaction back) and every statement but COMMIT and ROLLBACK is refused with 25P02
 * until one of them ends the block. COMMIT of a failed block rolls back, as in PostgreSQL.
 *
 * <p>Implicit transactions, as PostgreSQL has them: outside a block, the statements of one simple Query
 * that holds several, and the statements an extended-protocol client executes between two Syncs (a pgJDBC
 * {@code executeBatch}, say), run in one transaction, committed after the last (at Sync) and rolled back
 * whole when one fails. A BEGIN among them turns that transaction into the block it opens; a COMMIT or
 * ROLLBACK ends it. DECLARE and COPY end it first (committed) and run on their own.
 *
 * <p>Extended protocol: prepared statements are kept by name until Close or disconnect; a portal is one
 * execution of one, with its parameter values. A portal's statement runs at its first Describe or Execute,
 * whichever comes first, because the row description is only known from the result. After an error, messages
 * are skipped until Sync, which answers ReadyForQuery.
 */
public final class ClientSession {
    private static final int SQLSTATE_LENGTH = 5;

    private enum Phase { AWAITING_STARTUP, AWAITING_SASL_INITIAL, AWAITING_SASL_RESPONSE, READY, CLOSED }

    /** SCRAM without channel binding, offered always. */
    static final String SCRAM_SHA_256 = "SCRAM-SHA-256";
    /** SCRAM bound to the TLS channel ({@code tls-server-end-point}), offered over TLS. */
    static final String SCRAM_SHA_256_PLUS = "SCRAM-SHA-256-PLUS";
    /** One generator for every session: SecureRandom is thread-safe, and seeding it is the slow part. */
    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();
    /**
     * The secret the made-up salts of unknown users derive from: one per server process, so a name
     * shows the same salt on every attempt, as a real login's does.
     */
    private static final byte[] MOCK_SECRET = RANDOM.generateSeed(32);

    private enum Block { NONE, OPEN, FAILED }

    private final SessionConfig config;
    private final Outbound out;
    private final int processId;
    private final int secretKey;
    private final Map<String, PreparedCommand> statements = new HashMap<>();
    private final Map<String, Portal> portals = new HashMap<>();
    /** Open cursors by name, in the order they were declared; they share PostgreSQL's namespace with portals. */
    private final Map<String, Cursor> cursors = new LinkedHashMap<>();
    private Phase phase = Phase.AWAITING_STARTUP;
    /** Whether the client's address is a loopback one (set once, before the first message). */
    private final boolean loopbackClient;
    /** Whether TLS was started on this connection; set when the SSLRequest is answered, before the StartupMessage is handled. */
    private volatile boolean encrypted;
    /** Over TLS, the {@code tls-server-end-point} data of the certificate the server showed, once the handshake is done. */
    private volatile java.util.function.Supplier<byte[]> tlsServerEndPoint;
    /** The SCRAM exchange under way, between AuthenticationSASL and AuthenticationOk. */
    private dev.columba.core.auth.ScramExchange scram;
    private Block block = Block.NONE;
    /** Outside a block, whether an implicit transaction is open on the connection (autocommit off until it ends). */
    private boolean implicit;
    /** Whether the simple Query being run holds several statements, which then share an implicit transaction. */
    private boolean severalStatements;
    private boolean skipUntilSync;
    private Map<String, String> startupParameters = Map.of();
    /** The run-time parameters reported to the client at startup (ParameterStatus), which SHOW answers with. */
    private Map<String, String> reportedParameters = Map.of();
    private Connection connection;
    /** The statements of the simple query being run that have not run yet (a COPY FROM STDIN pauses them). */
    private final ArrayDeque<String> pendingStatements = new ArrayDeque<>();
    /** The COPY FROM STDIN whose data is arriving, or null. */
    private CopyIn copyIn;
    /** The JDBC statement running now, for CancelRequest. */
    private volatile Statement running;
    /** Columba's catalog in PostgreSQL's terms, read through this session's connection when a catalog query needs it. */
    private final CatalogQueries.CatalogSource catalogSource = new CatalogQueries.CatalogSource() {
        @Override
        public String database() {
            return startupParameters.getOrDefault("database", startupParameters.get("user"));
        }

        @Override
        public String user() {
            return startupParameters.get("user");
        }

        @Override
        public String parameter(String name) {
            for (Map.Entry<String, String> reported : reportedParameters.entrySet()) {
                if (reported.getKey().equalsIgnoreCase(name)) {
                    return reported.getValue();
                }
            }
            return null;
        }

        @Override
        public List<CatalogQueries.OpenCursor> cursors() {
            return cursors.values().stream().map(cursor -> new CatalogQueries.OpenCursor(cursor.name(),
                    cursor.query(), cursor.holdable(), cursor.binary(), cursor.scrollable())).toList();
        }

        @Override
        public List<CatalogQueries.Role> logins() {
            List<CatalogQueries.Role> roles = new ArrayList<>();
            try (Statement statement = connection.createStatement();
                 ResultSet logins = statement.executeQuery("SELECT name, is_sysadmin FROM sys.server_principals")) {
                while (logins.next()) {
                    roles.add(new CatalogQueries.Role(logins.getString(1), logins.getBoolean(2)));
                }
            } catch (SQLException e) {
                throw new CatalogQueryException(sqlState(e), "cannot read the logins: " + e.getMessage());
            }
            return roles;
        }

        @Override
        public PgCatalog read() {
            try {
                return PgCatalog.read(connection, database(), user());
            } catch (SQLException e) {
                throw new CatalogQueryException(sqlState(e), "cannot read the catalog: " + e.getMessage());
            }
        }
    };

    public ClientSession(SessionConfig config, Outbound out) {
        this(config, out, true);
    }

    /** @param loopbackClient whether the client connects from a loopback address (see SessionConfig#requireTlsRemote) */
    public ClientSession(SessionConfig config, Outbound out, boolean loopbackClient) {
        this.config = config;
        this.out = out;
        this.loopbackClient = loopbackClient;
        this.processId = config.cancelKeys().nextProcessId();
        this.secretKey = config.cancelKeys().nextSecret();
    }

    /**
     * TLS was started on the connection (an SSLRequest was answered with {@code S});
     * {@code serverEndPoint} gives the hash of the certificate the server showed (RFC 5929), for SCRAM's
     * channel binding, when asked after the handshake.
     */
    public void encrypted(java.util.function.Supplier<byte[]> serverEndPoint) {
        tlsServerEndPoint = serverEndPoint;
        encrypted = true;
    }

    int processId() {
        return processId;
    }

    int secretKey() {
        return secretKey;
    }

    /** Handles one message from the client. */
    public void handle(FrontendMessage message) {
        if (phase == Phase.CLOSED) {
            return;
        }
        if (copyIn != null && !(message instanceof FrontendMessage.CopyData || message instanceof FrontendMessage.CopyDone
                || message instanceof FrontendMessage.CopyFail || message instanceof FrontendMessage.Terminate)) {
            if (message instanceof FrontendMessage.Flush || message instanceof FrontendMessage.Sync) {
                // PostgreSQL ignores both while COPY data is coming.
                return;
            }
            abandonCopy(new WireSqlException("08P01", "unexpected message " + message.getClass().getSimpleName()
                    + " during COPY from stdin"));
        }
        if (batch != null && !continuesBatch(message)) {
            flushBatch();
        }
        switch (message) {
            case FrontendMessage.SslRequest ignored -> refuseEncryption();
            case FrontendMessage.GssEncRequest ignored -> refuseEncryption();
            case FrontendMessage.CancelRequest cancel -> {
                config.cancelKeys().cancel(cancel.processId(), cancel.secretKey());
                closeQuietly();
            }
            case FrontendMessage.Startup startup -> startup(startup);
            case FrontendMessage.PasswordMessage password -> password(password);
            case FrontendMessage.Terminate ignored -> closeQuietly();
            case FrontendMessage.Unsupported unsupported -> fatal("0A000", "frontend message type '"
                    + unsupported.type() + "' is not supported (function calls are not)");
            case FrontendMessage.Query query -> whenReady(() -> simpleQuery(query.sql()));
            case FrontendMessage.CopyData data -> whenReady(() -> copyData(data.data()));
            case FrontendMessage.CopyDone ignored -> whenReady(this::copyDone);
            case FrontendMessage.CopyFail fail -> whenReady(() -> abandonCopy(new WireSqlException("57014",
                    "COPY from stdin failed: " + fail.message())));
            case FrontendMessage.Sync ignored -> whenReady(this::sync);
            case FrontendMessage.Flush ignored -> whenReady(out::flush);
            case FrontendMessage.Parse parse -> extended(() -> parse(parse));
            case FrontendMessage.Bind bind -> extended(() -> bind(bind));
            case FrontendMessage.Describe describe -> extended(() -> describe(describe));
            case FrontendMessage.Execute execute -> extended(() -> execute(execute));
            case FrontendMessage.Close close -> extended(() -> close(close));
        }
    }

    /** Stops the statement running now, if any (CancelRequest, or the client went away). */
    public void cancelRunning() {
        Statement statement = running;
        if (statement != null) {
            try {
                statement.cancel();
            } catch (SQLException ignored) {
                // The statement ended meanwhile: nothing left to cancel.
            }
        }
    }

    /** Ends the session: open portals and statements closed, an open transaction rolled back, connection closed. */
    public void close() {
        if (phase == Phase.CLOSED) {
            return;
        }
        phase = Phase.CLOSED;
        config.cancelKeys().unregister(this);
        if (copyIn != null) {
            copyIn.discard();
            copyIn = null;
        }
        portals.values().forEach(Portal::close);
        portals.clear();
        cursors.values().forEach(Cursor::close);
        cursors.clear();
        statements.clear();
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // Closing rolls back; a failure leaves nothing more to do for a client that is gone.
            }
            connection = null;
        }
    }

    // ---- startup ----------------------------------------------------------------------------------

    private void refuseEncryption() {
        if (phase != Phase.AWAITING_STARTUP) {
            fatal("08P01", "encryption request after startup");
            return;
        }
        out.send(new BackendMessage.EncryptionRefused());
        out.flush();
    }

    private void startup(FrontendMessage.Startup startup) {
        if (phase != Phase.AWAITING_STARTUP) {
            fatal("08P01", "a second startup message");
            return;
        }
        startupParameters = startup.parameters();
        String user = startupParameters.get("user");
        if (user == null || user.isEmpty()) {
            fatal("28000", "no PostgreSQL user name specified in startup packet");
            return;
        }
        if (config.requireTlsRemote() && !loopbackClient && !encrypted) {
            // PostgreSQL says this with "no pg_hba.conf entry for host ..., SSL off", SQLSTATE 28000.
            fatal("28000", "connections from other machines must use TLS: connect with sslmode=require");
            return;
        }
        if (config.logins().isPresent()) {
            phase = Phase.AWAITING_SASL_INITIAL;
            out.send(new BackendMessage.AuthenticationSasl(encrypted ? List.of(SCRAM_SHA_256_PLUS, SCRAM_SHA_256)
                    : List.of(SCRAM_SHA_256)));
            out.flush();
        } else {
            completeStartup();
        }
    }

    /** SASLInitialResponse (mechanism and client-first-message), then SASLResponse (client-final-message). */
    private void password(FrontendMessage.PasswordMessage message) {
        try {
            switch (phase) {
                case AWAITING_SASL_INITIAL -> saslInitial(message.payload());
                case AWAITING_SASL_RESPONSE -> saslFinal(message.payload());
                default -> fatal("08P01", "unexpected password message");
            }
        } catch (dev.columba.core.auth.ScramExchange.ScramException malformed) {
            fatal("08P01", malformed.getMessage());
        }
    }

    private void saslInitial(byte[] payload) {
        int end = 0;
        while (end < payload.length && payload[end] != 0) {
            end++;
        }
        if (end + 5 > payload.length) {
            fatal("08P01", "malformed SASLInitialResponse message");
            return;
        }
        String mechanism = new String(payload, 0, end, StandardCharsets.UTF_8);
        boolean plus = encrypted && mechanism.equals(SCRAM_SHA_256_PLUS);
        if (!mechanism.equals(SCRAM_SHA_256) && !plus) {
            fatal("28000", "SASL authentication mechanism " + mechanism + " is not supported: the server offers "
                    + (encrypted ? SCRAM_SHA_256_PLUS + " and " : "") + SCRAM_SHA_256);
            return;
        }
        int length = ByteBuffer.wrap(payload, end + 1, 4).getInt();
        if (length < 0 || length != payload.length - end - 5) {
            fatal("08P01", "malformed SASLInitialResponse message: its data has " + (payload.length - end - 5)
                    + " bytes, not " + length);
            return;
        }
        String user = startupParameters.get("user");
        // An unknown user gets a made-up verifier and fails at the proof, with the message a wrong password gets.
        scram = config.logins().orElseThrow().verifier(user)
                .map(verifier -> dev.columba.core.auth.ScramExchange.forVerifier(verifier, RANDOM))
                .orElseGet(() -> dev.columba.core.auth.ScramExchange.forUnknownUser(user, MOCK_SECRET, RANDOM));
        if (encrypted) {
            scram.bindTo(tlsServerEndPoint.get());
        }
        String serverFirst = scram.serverFirst(new String(payload, end + 5, length, StandardCharsets.UTF_8), plus);
        phase = Phase.AWAITING_SASL_RESPONSE;
        out.send(new BackendMessage.AuthenticationSaslContinue(serverFirst.getBytes(StandardCharsets.UTF_8)));
        out.flush();
    }

    private void saslFinal(byte[] payload) {
        java.util.Optional<String> serverFinal = scram.serverFinal(new String(payload, StandardCharsets.UTF_8));
        scram = null;
        if (serverFinal.isEmpty()) {
            fatal("28P01", "password authentication failed for user \"" + startupParameters.get("user") + "\"");
            return;
        }
        out.send(new BackendMessage.AuthenticationSaslFinal(serverFinal.get().getBytes(StandardCharsets.UTF_8)));
        completeStartup();
    }

    /**
     * Runs the session's connection for the login named {@code user}, if the database has one, whichever way the
     * client was let in (a login's password, or trust naming it): it may then do what that login may. A user
     * name that is no login (the server's {@code --password} user, or a trusted name) acts for the database's
     * owner. Returns whether the session may do everything (PostgreSQL's {@code is_superuser}).
     */
    private boolean runForLogin(String user) throws SQLException {
        ColumbaConnection columba = connection.unwrap(ColumbaConnection.class);
        if (columba.loginVerifier(user).isEmpty()) {
            return true;
        }
        columba.authenticatedAs(user);
        try (PreparedStatement sysadmin = connection.prepareStatement(
                "SELECT is_sysadmin FROM sys.server_principals WHERE lower(name) = lower(CAST(? AS VARCHAR(128)))")) {
            sysadmin.setString(1, user);
            try (ResultSet row = sysadmin.executeQuery()) {
                return row.next() && row.getBoolean(1);
            }
        }
    }

    private void completeStartup() {
        boolean superuser;
        try {
            connection = DriverManager.getConnection(config.jdbcUrl());
            superuser = runForLogin(startupParameters.get("user"));
        } catch (SQLException e) {
            fatal(sqlState(e), "cannot open the database: " + e.getMessage());
            return;
        }
        phase = Phase.READY;
        config.cancelKeys().register(this);
        out.send(new BackendMessage.AuthenticationOk());
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("server_version", config.serverVersion());
        parameters.put("server_encoding", "UTF8");
        parameters.put("client_encoding", "UTF8");
        parameters.put("DateStyle", "ISO, MDY");
        parameters.put("IntervalStyle", "postgres");
        parameters.put("TimeZone", startupParameters.getOrDefault("TimeZone", "UTC"));
        parameters.put("integer_datetimes", "on");
        parameters.put("standard_conforming_strings", "on");
        parameters.put("is_superuser", superuser ? "on" : "off");
        parameters.put("session_authorization", startupParameters.get("user"));
        parameters.put("application_name", startupParameters.getOrDefault("application_name", ""));
        parameters.put("default_transaction_read_only", "off");
        parameters.put("in_hot_standby", "off");
        parameters.forEach((name, value) -> out.send(new BackendMessage.ParameterStatus(name, value)));
        reportedParameters = parameters;
        out.send(new BackendMessage.BackendKeyData(processId, secretKey));
        readyForQuery();
    }

    private void whenReady(Runnable action) {
        if (phase != Phase.READY) {
            fatal("08P01", "query before authentication completed");
            return;
        }
        action.run();
    }

    // ---- simple query protocol --------------------------------------------------------------------

    private void simpleQuery(String sql) {
        // A Query ends any extended-protocol batch in progress.
        skipUntilSync = false;
        closeUnnamedPortal();
        List<String> texts;
        try {
            texts = SqlText.split(sql);
        } catch (RuntimeException e) {
            error(e);
            readyForQuery();
            return;
        }
        if (texts.isEmpty()) {
            out.send(new BackendMessage.EmptyQueryResponse());
        }
        pendingStatements.clear();
        pendingStatements.addAll(texts);
        severalStatements = texts.size() > 1;
        runPending();
    }

    /** Runs the simple query's statements in turn, then ReadyForQuery; a COPY FROM STDIN pauses them for its data. */
    private void runPending() {
        while (!pendingStatements.isEmpty()) {
            String text = pendingStatements.poll();
            try {
                runSimple(Command.of(text));
            } catch (RuntimeException | SQLException e) {
                error(e);
                pendingStatements.clear();
                abortImplicit();
                break;
            }
            if (copyIn != null) {
                return;
            }
        }
        commitImplicit();
        readyForQuery();
    }

    private void runSimple(Command command) throws SQLException {
        if (command instanceof Command.Catalog catalogQuery) {
            refuseInFailedBlock();
            CatalogResult result = CatalogQueries.answer(SqlText.toJdbc(catalogQuery.text()).sql(), catalogSource);
            out.send(new BackendMessage.RowDescription(result.fields()));
            for (Object[] row : result.rows()) {
                out.send(Rows.catalogRow(row, result.fields()));
            }
            out.send(new BackendMessage.CommandComplete(CommandTags.rows(result.rows().size())));
            return;
        }
        if (command instanceof Command.Declare declare) {
            endImplicit(true);
            declareCursor(declare, SqlText.toJdbc(declare.query()), new Object[0]);
            out.send(new BackendMessage.CommandComplete("DECLARE CURSOR"));
            return;
        }
        if (command instanceof Command.Fetch fetch) {
            refuseInFailedBlock();
            Cursor cursor = cursor(fetch.name());
            if (!fetch.move()) {
                out.send(new BackendMessage.RowDescription(cursor.fields()));
            }
            out.send(new BackendMessage.CommandComplete(fetchRows(cursor, fetch, cursor.fields())));
            return;
        }
        if (command instanceof Command.Copy copy) {
            refuseInFailedBlock();
            endImplicit(true);
            if (copy.copy().in()) {
                startCopyIn(copy.copy());
            } else {
                copyOut(copy.copy());
            }
            return;
        }
        if (!(command instanceof Command.Sql sql)) {
            out.send(new BackendMessage.CommandComplete(runControl(command)));
            return;
        }
        refuseInFailedBlock();
        if (severalStatements) {
            beginImplicit();
        }
        String text = forColumba(SqlText.toJdbc(sql.text()).sql());
        Statement statement = connection.createStatement();
        try {
            running = statement;
            if (statement.execute(text)) {
                try (ResultSet rows = statement.getResultSet()) {
                    List<Field> fields = Columns.fields(rows.getMetaData());
                    out.send(new BackendMessage.RowDescription(fields));
                    long count = 0;
                    while (rows.next()) {
                        out.send(Rows.dataRow(rows, fields));
                        count++;
                    }
                    sendNotices(statement);
                    out.send(new BackendMessage.CommandComplete(CommandTags.rows(text, count)));
                }
            } else {
                sendNotices(statement);
                out.send(new BackendMessage.CommandComplete(CommandTags.update(text, statement.getLargeUpdateCount())));
            }
        } finally {
            running = null;
            statement.close();
        }
    }

    // ---- COPY FROM STDIN and TO STDOUT -------------------------------------------------------------

    /**
     * A COPY FROM STDIN receiving its data: the bytes go to a file in the temporary directory as they come,
     * and Columba's own COPY loads that file when the client says it is done, so a load over the wire takes
     * the same path as a load from a file (parallel parsing, the columnstore's bulk path). A CSV header line
     * is dropped here rather than checked by Columba, as PostgreSQL ignores it.
     */
    private static final class CopyIn {
        final WireCopy copy;
        final Path file;
        final OutputStream stream;
        boolean headerPending;
        boolean inQuotes;

        CopyIn(WireCopy copy, Path file) throws IOException {
            this.copy = copy;
            this.file = file;
            this.stream = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
            this.headerPending = copy.csv() && copy.header();
        }

        void write(byte[] data) throws IOException {
            int from = 0;
            while (headerPending && from < data.length) {
                byte b = data[from++];
                if (b == copy.quote()) {
                    inQuotes = !inQuotes;
                } else if (b == '\n' && !inQuotes) {
                    headerPending = false;
                }
            }
            stream.write(data, from, data.length - from);
        }

        void discard() {
            try {
                stream.close();
            } catch (IOException ignored) {
                // The file is deleted next; what it held is not wanted any more.
            }
            deleteQuietly(file);
        }
    }

    private void startCopyIn(WireCopy copy) throws SQLException {
        int columns = copyColumns(copy);
        try {
            copyIn = new CopyIn(copy, Files.createTempFile("columba-copy-", copy.csv() ? ".csv" : ".txt"));
        } catch (IOException e) {
            throw new WireSqlException("58030", "cannot make a file for COPY's data: " + e.getMessage());
        }
        out.send(new BackendMessage.CopyInResponse(columns));
        out.flush();
    }

    /** The columns COPY FROM STDIN fills; reading them also checks that the table and columns exist. */
    private int copyColumns(WireCopy copy) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(copy.query() + " WHERE 1 = 0")) {
            return rows.getMetaData().getColumnCount();
        }
    }

    private void copyData(byte[] data) {
        if (copyIn == null) {
            // PostgreSQL accepts and drops data that comes after its COPY failed.
            return;
        }
        try {
            copyIn.write(data);
        } catch (IOException e) {
            abandonCopy(new WireSqlException("58030", "cannot keep COPY's data: " + e.getMessage()));
        }
    }

    private void copyDone() {
        CopyIn done = copyIn;
        if (done == null) {
            return;
        }
        copyIn = null;
        Path converted = null;
        Statement statement = null;
        try {
            done.stream.close();
            Path file = done.file;
            String options;
            if (done.copy.csv()) {
                dropEndMarker(file);
                options = "FORMAT csv, DELIMITER " + literal(done.copy.delimiter()) + ", QUOTE " + literal(done.copy.quote())
                        + ", ESCAPE " + literal(done.copy.escape()) + ", NULL '" + done.copy.nullText().replace("'", "''") + "'";
            } else {
                converted = Files.createTempFile("columba-copy-", ".csv");
                try (InputStream text = Files.newInputStream(file); OutputStream csv = Files.newOutputStream(converted)) {
                    CopyRows.textToCsv(text, csv, done.copy);
                }
                file = converted;
                options = "FORMAT csv";
            }
            statement = connection.createStatement();
            running = statement;
            long count = statement.executeLargeUpdate("COPY " + done.copy.target() + " FROM '"
                    + file.toAbsolutePath().toString().replace("'", "''") + "' (" + options + ")");
            sendNotices(statement);
            out.send(new BackendMessage.CommandComplete("COPY " + count));
        } catch (SQLException e) {
            // Columba's message names the file it read; the client sent the data, not a file.
            String message = String.valueOf(e.getMessage()).replace(done.file.toAbsolutePath().toString(), "STDIN");
            if (converted != null) {
                message = message.replace(converted.toAbsolutePath().toString(), "STDIN");
            }
            error(new WireSqlException(sqlState(e), done.copy.header() ? message + " (lines counted after the header)" : message));
            pendingStatements.clear();
        } catch (RuntimeException | IOException e) {
            error(e instanceof IOException io ? new WireSqlException("58030", "cannot read COPY's data back: "
                    + io.getMessage()) : e);
            pendingStatements.clear();
        } finally {
            running = null;
            closeQuietly(statement);
            done.discard();
            if (converted != null) {
                deleteQuietly(converted);
            }
        }
        runPending();
    }

    /** Ends a COPY FROM STDIN without loading anything, reporting {@code failure}, and ends the query. */
    private void abandonCopy(WireSqlException failure) {
        CopyIn abandoned = copyIn;
        if (abandoned == null) {
            return;
        }
        copyIn = null;
        abandoned.discard();
        error(failure);
        pendingStatements.clear();
        readyForQuery();
    }

    private void copyOut(WireCopy copy) throws SQLException {
        Statement statement = connection.createStatement();
        try {
            running = statement;
            try (ResultSet rows = statement.executeQuery(forColumba(copy.query()))) {
                List<Field> fields = Columns.fields(rows.getMetaData());
                out.send(new BackendMessage.CopyOutResponse(fields.size()));
                if (copy.header()) {
                    out.send(new BackendMessage.CopyData(CopyRows.header(fields.stream().map(Field::name).toList(), copy)));
                }
                long count = 0;
                while (rows.next()) {
                    out.send(new BackendMessage.CopyData(CopyRows.row(Rows.dataRow(rows, fields).values(), copy)));
                    count++;
                }
                out.send(new BackendMessage.CopyDone());
                sendNotices(statement);
                out.send(new BackendMessage.CommandComplete("COPY " + count));
            }
        } finally {
            running = null;
            statement.close();
        }
    }

    /** Removes the line {@code \.} that older clients end COPY data with, if the file ends with it. */
    private static void dropEndMarker(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = channel.size();
            int tail = (int) Math.min(size, 5);
            ByteBuffer last = ByteBuffer.allocate(tail);
            channel.read(last, size - tail);
            String end = new String(last.array(), StandardCharsets.US_ASCII);
            for (String marker : List.of("\\.\r\n", "\\.\n", "\\.")) {
                if (end.endsWith(marker)) {
                    long at = size - marker.length();
                    if (at == 0 || end.charAt(tail - marker.length() - 1) == '\n') {
                        channel.truncate(at);
                    }
                    return;
                }
            }
        }
    }

    /** A one-character SQL literal for Columba's COPY options ({@code '\t'} for a tab, as Columba reads it). */
    private static String literal(char character) {
        return switch (character) {
            case '\'' -> "''''";
            case '\t' -> "'\\t'";
            default -> "'" + character + "'";
        };
    }

    private static void closeQuietly(Statement statement) {
        if (statement != null) {
            try {
                statement.close();
            } catch (SQLException ignored) {
                // Closing a finished statement frees its resources; a failure leaves nothing to do.
            }
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // A file of the temporary directory left behind costs its space and nothing else.
        }
    }

    // ---- cursors (DECLARE, FETCH, MOVE, CLOSE) -----------------------------------------------------

    /** The leading words of the queries a cursor may be declared for, as PostgreSQL's grammar allows. */
    private static final java.util.Set<String> CURSOR_QUERY_WORDS = java.util.Set.of("SELECT", "WITH", "VALUES", "TABLE");

    /**
     * Opens a cursor over {@code jdbc} (the query after FOR, with {@code ?} markers) bound to {@code values}. Without
     * HOLD it needs a transaction block (25P01, as in PostgreSQL). WITH HOLD outside a block runs in a transaction of
     * its own whose commit moves the result to the heap, as PostgreSQL materializes such a cursor at once.
     */
    private void declareCursor(Command.Declare declare, SqlText.JdbcSql jdbc, Object[] values) throws SQLException {
        refuseInFailedBlock();
        if (block == Block.NONE && !declare.hold()) {
            throw new WireSqlException("25P01", "DECLARE CURSOR can only be used in transaction blocks");
        }
        if (cursors.containsKey(declare.name()) || portals.containsKey(declare.name())) {
            throw new WireSqlException("42P03", "cursor \"" + declare.name() + "\" already exists");
        }
        List<String> words = SqlText.words(declare.query(), 1);
        if (words.isEmpty() ? !declare.query().startsWith("(") : !CURSOR_QUERY_WORDS.contains(words.getFirst())) {
            throw new WireSqlException("42601", "syntax error: a cursor is declared FOR a query (SELECT, VALUES, WITH),"
                    + " not for " + (words.isEmpty() ? "this statement" : words.getFirst()));
        }
        if (block == Block.OPEN) {
            cursors.put(declare.name(), openCursor(declare, jdbc, values, true));
            return;
        }
        connection.setAutoCommit(false);
        Cursor cursor = null;
        try {
            cursor = openCursor(declare, jdbc, values, false);
            connection.commit();
            cursors.put(declare.name(), cursor);
        } catch (SQLException | RuntimeException e) {
            if (cursor != null) {
                cursor.close();
            }
            try {
                connection.rollback();
            } catch (SQLException rollbackFailure) {
                e.addSuppressed(rollbackFailure);
            }
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }

    private Cursor openCursor(Command.Declare declare, SqlText.JdbcSql jdbc, Object[] values, boolean inOpenBlock)
            throws SQLException {
        List<Format> formats = List.of(declare.binary() ? Format.BINARY : Format.TEXT);
        if (CatalogQueries.isCatalogQuery(declare.query())) {
            CatalogResult result = CatalogQueries.answer(SqlText.withLiterals(jdbc, values), catalogSource);
            return Cursor.ofRows(declare, Columns.withFormats(result.fields(), formats), result.rows(), inOpenBlock);
        }
        PreparedStatement prepared = connection.prepareStatement(forColumba(jdbc.sql()));
        try {
            int[] numbers = jdbc.parameterNumbers();
            for (int marker = 0; marker < numbers.length; marker++) {
                prepared.setObject(marker + 1, values[numbers[marker] - 1]);
            }
            running = prepared;
            ResultSet rows = prepared.executeQuery();
            List<Field> fields = Columns.withFormats(Columns.fields(rows.getMetaData()), formats);
            sendNotices(prepared);
            return Cursor.ofResult(declare, fields, prepared, rows, inOpenBlock);
        } catch (SQLException | RuntimeException e) {
            prepared.close();
            throw e;
        } finally {
            running = null;
        }
    }

    /**
     * The text Columba runs for a statement: as it is, or with the {@code information_schema} views it names written
     * in as derived tables of the catalog now ({@link InformationSchema}).
     */
    private String forColumba(String sql) {
        return InformationSchema.references(sql) ? InformationSchema.rewrite(sql, catalogSource.read()) : sql;
    }

    private Cursor cursor(String name) {
        Cursor cursor = cursors.get(name);
        if (cursor == null) {
            throw new WireSqlException("34000", "cursor \"" + name + "\" does not exist");
        }
        return cursor;
    }

    /** Runs a FETCH or MOVE, sending a FETCH's rows in {@code rowFields}' formats; returns the command tag. */
    private String fetchRows(Cursor cursor, Command.Fetch fetch, List<Field> rowFields) throws SQLException {
        running = cursor.statement();
        try {
            long count = cursor.fetch(fetch, rowFields, fetch.move() ? null : out::send);
            return (fetch.move() ? "MOVE " : "FETCH ") + count;
        } finally {
            running = null;
        }
    }

    private String closeCursor(Command.CloseCursor close) {
        refuseInFailedBlock();
        if (close.name() == null) {
            cursors.values().forEach(Cursor::close);
            cursors.clear();
            return "CLOSE CURSOR ALL";
        }
        cursor(close.name()).close();
        cursors.remove(close.name());
        return "CLOSE CURSOR";
    }

    private void closeCursorsWithoutHold() {
        var iterator = cursors.values().iterator();
        while (iterator.hasNext()) {
            Cursor cursor = iterator.next();
            if (!cursor.holdable()) {
                cursor.close();
                iterator.remove();
            }
        }
    }

    /**
     * The transaction block ended: its cursors without HOLD close, and so do those WITH HOLD it declared unless it
     * committed; the others stay, as in PostgreSQL.
     */
    private void endCursors(boolean committed) {
        var iterator = cursors.values().iterator();
        while (iterator.hasNext()) {
            Cursor cursor = iterator.next();
            if (!cursor.holdable() || (cursor.inOpenBlock() && !committed)) {
                cursor.close();
                iterator.remove();
            } else {
                cursor.blockCommitted();
            }
        }
    }

    // ---- extended query protocol ------------------------------------------------------------------

    private interface Step {
        void run() throws SQLException;
    }

    private void extended(Step step) {
        if (phase != Phase.READY) {
            fatal("08P01", "extended query before authentication completed");
            return;
        }
        if (skipUntilSync) {
            return;
        }
        try {
            step.run();
        } catch (RuntimeException | SQLException e) {
            if (e instanceof Outbound.ClientGoneException gone) {
                throw gone;
            }
            error(e);
            skipUntilSync = true;
            // PostgreSQL aborts the implicit transaction at once; the Sync then only ends it.
            abortImplicit();
        }
    }

    private void parse(FrontendMessage.Parse parse) {
        if (!parse.name().isEmpty() && statements.containsKey(parse.name())) {
            throw new WireSqlException("42P05", "prepared statement \"" + parse.name() + "\" already exists");
        }
        statements.put(parse.name(), PreparedCommand.of(parse.query(), parse.parameterTypes()));
        out.send(new BackendMessage.ParseComplete());
    }

    private void bind(FrontendMessage.Bind bind) {
        PreparedCommand statement = statement(bind.statement());
        int count = statement.parameterTypes().size();
        if (bind.values().size() != count) {
            throw new WireSqlException("08P01", "bind message supplies " + bind.values().size()
                    + " parameters, but prepared statement \"" + bind.statement() + "\" requires " + count);
        }
        List<Format> formats = bind.parameterFormats();
        if (formats.size() > 1 && formats.size() != count) {
            throw new WireSqlException("08P01", "bind message has " + formats.size() + " parameter formats but "
                    + count + " parameters");
        }
        Object[] values = new Object[count];
        for (int index = 0; index < count; index++) {
            Format format = formats.isEmpty() ? Format.TEXT : formats.size() == 1 ? formats.getFirst() : formats.get(index);
            values[index] = Values.decodeParameter(bind.values().get(index), statement.parameterTypes().get(index),
                    format, index + 1);
        }
        if (!bind.portal().isEmpty() && (portals.containsKey(bind.portal()) || cursors.containsKey(bind.portal()))) {
            throw new WireSqlException("42P03", "portal \"" + bind.portal() + "\" already exists");
        }
        Portal previous = portals.put(bind.portal(), new Portal(statement, values, bind.resultFormats()));
        if (previous != null) {
            previous.close();
        }
        answer(new BackendMessage.BindComplete());
    }

    private void describe(FrontendMessage.Describe describe) throws SQLException {
        switch (describe.target()) {
            case STATEMENT -> {
                PreparedCommand statement = statement(describe.name());
                List<Integer> types = statement.parameterTypes().stream()
                        .map(oid -> oid == PgTypes.UNSPECIFIED ? PgTypes.TEXT : oid).toList();
                out.send(new BackendMessage.ParameterDescription(types));
                List<Field> fields = switch (statement.command()) {
                    case Command.Catalog ignored -> CatalogQueries.answer(SqlText.withLiterals(statement.jdbc(),
                            new Object[statement.parameterTypes().size()]), catalogSource).fields();
                    case Command.Fetch fetch when !fetch.move() -> Columns.withFormats(cursor(fetch.name()).fields(),
                            List.of(Format.TEXT));
                    default -> statement.describe(connection, catalogSource::read);
                };
                out.send(fields == null ? new BackendMessage.NoData() : new BackendMessage.RowDescription(fields));
            }
            case PORTAL -> {
                Cursor cursor = portals.containsKey(describe.name()) ? null : cursors.get(describe.name());
                if (cursor != null) {
                    // A cursor is a portal in PostgreSQL: psycopg learns a named cursor's columns this way.
                    out.send(new BackendMessage.RowDescription(cursor.fields()));
                    return;
                }
                Portal portal = portal(describe.name());
                if (portal.batchable()) {
                    // An INSERT, UPDATE or DELETE without RETURNING has no rows to describe: answered without running
                    // it (as PostgreSQL does), so its Execute can still join a batch; pgJDBC describes every row's portal.
                    answer(new BackendMessage.NoData());
                    return;
                }
                portal.start();
                out.send(portal.fields == null ? new BackendMessage.NoData() : new BackendMessage.RowDescription(portal.fields));
            }
        }
    }

    private void execute(FrontendMessage.Execute execute) throws SQLException {
        Portal portal = portal(execute.portal());
        if (portal.batchable()) {
            refuseInFailedBlock();
            if (batch == null) {
                batch = new PendingBatch(portal.statement, new ArrayList<>(), new ArrayList<>());
            }
            portal.takenByBatch();
            batch.answers().add(batch.rows().size());
            batch.rows().add(portal.values);
            if (batch.rows().size() >= MAX_BATCHED_EXECUTES) {
                flushBatch();
            }
            return;
        }
        portal.start();
        portal.sendResult(execute.maxRows());
    }

    // ---- batched executes ---------------------------------------------------------------------------

    /** The most Executes run as one batch; a longer run is several. */
    private static final int MAX_BATCHED_EXECUTES = 10_000;

    /**
     * Executes of one INSERT, UPDATE or DELETE not answered yet (a pgJDBC {@code executeBatch} sends a Bind and an
     * Execute per row, then one Sync): run together through the driver's {@code executeBatch}, which plans once and
     * writes every row in one pass, instead of an operator tree per row. {@code answers} holds, in the order their
     * messages came, the BindComplete messages deferred meanwhile and, as Integers, the rows whose CommandComplete
     * is due, so the client reads every answer in order, as if each had been run at once.
     */
    private record PendingBatch(PreparedCommand statement, List<Object[]> rows, List<Object> answers) {
    }

    private PendingBatch batch;

    /** Sends {@code message} now, or after the pending batch's answers if one is pending. */
    private void answer(BackendMessage message) {
        if (batch != null) {
            batch.answers().add(message);
        } else {
            out.send(message);
        }
    }

    /** Whether {@code message} adds to the pending batch: a Bind, a Describe of a bound portal, or an Execute of its statement. */
    private boolean continuesBatch(FrontendMessage message) {
        return switch (message) {
            case FrontendMessage.Describe describe -> {
                Portal portal = describe.target() == FrontendMessage.Target.PORTAL ? portals.get(describe.name()) : null;
                yield portal != null && portal.statement == batch.statement() && portal.batchable();
            }
            case FrontendMessage.Bind bind -> statements.get(bind.statement()) == batch.statement()
                    && (bind.portal().isEmpty() || !portals.containsKey(bind.portal()));
            case FrontendMessage.Execute execute -> {
                Portal portal = portals.get(execute.portal());
                yield portal != null && portal.statement == batch.statement() && portal.batchable();
            }
            default -> false;
        };
    }

    /**
     * Runs the pending batch and sends its answers in order. A failure is reported at the batch's first Execute:
     * nothing of the batch is kept (the driver's batch is one statement, and its failure rolls the transaction
     * back), and the messages after it are skipped until Sync, as after any error. PostgreSQL would have
     * answered the Executes before the failing row first; their rows are rolled back there too, with the implicit
     * transaction or the failed block.
     */
    private void flushBatch() {
        PendingBatch pending = batch;
        batch = null;
        long[] counts;
        try {
            beginImplicit();
            SqlText.JdbcSql jdbc = pending.statement().jdbc();
            try (PreparedStatement prepared = connection.prepareStatement(
                    pending.statement().forColumba(jdbc.sql(), catalogSource::read))) {
                int[] numbers = jdbc.parameterNumbers();
                for (Object[] values : pending.rows()) {
                    for (int marker = 0; marker < numbers.length; marker++) {
                        prepared.setObject(marker + 1, values[numbers[marker] - 1]);
                    }
                    prepared.addBatch();
                }
                running = prepared;
                try {
                    counts = prepared.executeLargeBatch();
                } finally {
                    running = null;
                }
                sendNotices(prepared);
            }
        } catch (RuntimeException | SQLException e) {
            if (e instanceof Outbound.ClientGoneException gone) {
                throw gone;
            }
            error(e);
            skipUntilSync = true;
            abortImplicit();
            return;
        }
        String sql = pending.statement().jdbc().sql();
        for (Object answer : pending.answers()) {
            out.send(answer instanceof Integer row ? new BackendMessage.CommandComplete(CommandTags.update(sql, counts[row]))
                    : (BackendMessage) answer);
        }
    }

    private void close(FrontendMessage.Close close) {
        switch (close.target()) {
            case STATEMENT -> statements.remove(close.name());
            case PORTAL -> {
                Portal portal = portals.remove(close.name());
                if (portal != null) {
                    portal.close();
                } else {
                    Cursor cursor = cursors.remove(close.name());
                    if (cursor != null) {
                        cursor.close();
                    }
                }
            }
        }
        out.send(new BackendMessage.CloseComplete());
    }

    private void sync() {
        skipUntilSync = false;
        if (block == Block.NONE) {
            // Outside a transaction block each Sync ends the implicit transaction, and its portals with it.
            portals.values().forEach(Portal::close);
            portals.clear();
            commitImplicit();
        }
        readyForQuery();
    }

    // ---- implicit transactions ---------------------------------------------------------------------

    /** Opens an implicit transaction outside a block, if none is open. */
    private void beginImplicit() throws SQLException {
        if (block == Block.NONE && !implicit) {
            connection.setAutoCommit(false);
            implicit = true;
        }
    }

    /** Ends the implicit transaction, if one is open: commits or rolls back, and returns to autocommit. */
    private void endImplicit(boolean commit) throws SQLException {
        if (!implicit) {
            return;
        }
        implicit = false;
        try {
            if (commit) {
                connection.commit();
            } else {
                connection.rollback();
            }
        } finally {
            connection.setAutoCommit(true);
        }
    }

    /** Commits the implicit transaction at the end of its statements; a failed commit is the statements' error. */
    private void commitImplicit() {
        try {
            endImplicit(true);
        } catch (SQLException | RuntimeException e) {
            error(e);
        }
    }

    /** Rolls the implicit transaction back after one of its statements failed (Columba may have done so already). */
    private void abortImplicit() {
        try {
            endImplicit(false);
        } catch (SQLException | RuntimeException e) {
            if (e instanceof Outbound.ClientGoneException gone) {
                throw gone;
            }
            // The statement's error was reported; a rollback that fails too leaves autocommit back on all the same.
        }
    }

    private PreparedCommand statement(String name) {
        PreparedCommand statement = statements.get(name);
        if (statement == null) {
            throw new WireSqlException("26000", "prepared statement \"" + name + "\" does not exist");
        }
        return statement;
    }

    private Portal portal(String name) {
        Portal portal = portals.get(name);
        if (portal == null) {
            throw new WireSqlException("34000", "portal \"" + name + "\" does not exist");
        }
        return portal;
    }

    private void closeUnnamedPortal() {
        Portal unnamed = portals.remove("");
        if (unnamed != null) {
            unnamed.close();
        }
    }

    /** One execution of a prepared statement with its parameter values; runs at its first Describe or Execute. */
    private final class Portal {
        private final PreparedCommand statement;
        private final Object[] values;
        private final List<Format> resultFormats;
        private boolean started;
        private boolean completed;
        private PreparedStatement prepared;
        /** The answer of a catalog query, which the server computes whole; rows go out from {@link #rowsSent}. */
        private CatalogResult catalogResult;
        private ResultSet rows;
        private List<Field> fields;
        private String tag;
        private long rowsSent;
        /** The result set stands on a row not sent yet (Execute stopped at its row limit). */
        private boolean rowPending;
        /** The cursor a FETCH or MOVE reads, found when the portal starts. */
        private Cursor fetchCursor;

        Portal(PreparedCommand statement, Object[] values, List<Format> resultFormats) {
            this.statement = statement;
            this.values = values;
            this.resultFormats = resultFormats;
        }

        /** Whether an Execute of this portal may wait in a batch: an INSERT, UPDATE or DELETE that returns no rows, not run yet. */
        boolean batchable() {
            return !started && statement.command() instanceof Command.Sql && statement.returnsNoRows();
        }

        /** The portal's Execute went into the pending batch: it is not run on its own. */
        void takenByBatch() {
            started = true;
            completed = true;
        }

        void start() throws SQLException {
            if (started) {
                return;
            }
            started = true;
            if (statement.command() instanceof Command.Catalog) {
                refuseInFailedBlock();
                catalogResult = CatalogQueries.answer(SqlText.withLiterals(statement.jdbc(), values), catalogSource);
                fields = Columns.withFormats(catalogResult.fields(), resultFormats);
                return;
            }
            if (statement.command() instanceof Command.Declare declare) {
                endImplicit(true);
                declareCursor(declare, statement.jdbc(), values);
                tag = "DECLARE CURSOR";
                return;
            }
            if (statement.command() instanceof Command.Fetch fetch) {
                refuseInFailedBlock();
                fetchCursor = cursor(fetch.name());
                // Bind's result formats decide, as for any portal; without any, the cursor's own (BINARY or text).
                fields = fetch.move() ? null : resultFormats.isEmpty() ? fetchCursor.fields()
                        : Columns.withFormats(fetchCursor.fields(), resultFormats);
                return;
            }
            if (!(statement.command() instanceof Command.Sql)) {
                tag = statement.command() instanceof Command.Empty ? null : runControl(statement.command());
                return;
            }
            refuseInFailedBlock();
            beginImplicit();
            SqlText.JdbcSql jdbc = statement.jdbc();
            prepared = connection.prepareStatement(statement.forColumba(jdbc.sql(), catalogSource::read));
            int[] numbers = jdbc.parameterNumbers();
            for (int marker = 0; marker < numbers.length; marker++) {
                prepared.setObject(marker + 1, values[numbers[marker] - 1]);
            }
            running = prepared;
            try {
                if (prepared.execute()) {
                    rows = prepared.getResultSet();
                    fields = Columns.withFormats(Columns.fields(rows.getMetaData()), resultFormats);
                } else {
                    tag = CommandTags.update(jdbc.sql(), prepared.getLargeUpdateCount());
                    sendNotices(prepared);
                }
            } finally {
                running = null;
            }
        }

        void sendResult(int maxRows) throws SQLException {
            if (statement.command() instanceof Command.Empty) {
                out.send(new BackendMessage.EmptyQueryResponse());
                return;
            }
            if (catalogResult != null) {
                sendCatalogRows(maxRows);
                return;
            }
            if (fetchCursor != null) {
                // A FETCH runs once, whole; a row limit on its Execute is not applied (clients send none).
                String fetched = completed ? (((Command.Fetch) statement.command()).move() ? "MOVE 0" : "FETCH 0")
                        : fetchRows(fetchCursor, (Command.Fetch) statement.command(), fields);
                completed = true;
                out.send(new BackendMessage.CommandComplete(fetched));
                return;
            }
            if (rows == null) {
                out.send(new BackendMessage.CommandComplete(tag));
                return;
            }
            if (completed) {
                out.send(new BackendMessage.CommandComplete(CommandTags.rows(statement.jdbc().sql(), 0)));
                return;
            }
            running = prepared;
            try {
                int sent = 0;
                while (maxRows <= 0 || sent < maxRows) {
                    boolean hasRow = rowPending || rows.next();
                    rowPending = false;
                    if (!hasRow) {
                        completed = true;
                        rows.close();
                        sendNotices(prepared);
                        out.send(new BackendMessage.CommandComplete(CommandTags.rows(statement.jdbc().sql(), rowsSent)));
                        return;
                    }
                    out.send(Rows.dataRow(rows, fields));
                    sent++;
                    rowsSent++;
                }
                rowPending = rows.next();
                if (rowPending) {
                    out.send(new BackendMessage.PortalSuspended());
                } else {
                    completed = true;
                    rows.close();
                    sendNotices(prepared);
                    out.send(new BackendMessage.CommandComplete(CommandTags.rows(statement.jdbc().sql(), rowsSent)));
                }
            } finally {
                running = null;
            }
        }

        private void sendCatalogRows(int maxRows) {
            List<Object[]> all = catalogResult.rows();
            int sent = 0;
            while (rowsSent < all.size() && (maxRows <= 0 || sent < maxRows)) {
                out.send(Rows.catalogRow(all.get((int) rowsSent), fields));
                rowsSent++;
                sent++;
            }
            out.send(rowsSent < all.size() ? new BackendMessage.PortalSuspended()
                    : new BackendMessage.CommandComplete(CommandTags.rows(statement.jdbc().sql(), rowsSent)));
        }

        void close() {
            if (prepared != null) {
                try {
                    prepared.close();
                } catch (SQLException ignored) {
                    // Closing a statement of an open connection does not fail in the embedded driver.
                }
                prepared = null;
            }
        }
    }

    // ---- transaction control and ignored settings ---------------------------------------------------

    /** Runs BEGIN, COMMIT, ROLLBACK or an ignored SET; returns the command tag. */
    private String runControl(Command command) throws SQLException {
        return switch (command) {
            case Command.Begin ignored -> {
                switch (block) {
                    case NONE -> {
                        // Statements of an implicit transaction before the BEGIN become part of its block.
                        implicit = false;
                        connection.setAutoCommit(false);
                        block = Block.OPEN;
                    }
                    case OPEN -> out.send(new BackendMessage.NoticeResponse("25001", "there is already a transaction in progress"));
                    case FAILED -> refuseInFailedBlock();
                }
                yield "BEGIN";
            }
            case Command.Commit ignored -> commit();
            case Command.Rollback ignored -> {
                if (block == Block.NONE && implicit) {
                    endImplicit(false);
                } else if (block == Block.NONE) {
                    out.send(new BackendMessage.NoticeResponse("25P01", "there is no transaction in progress"));
                } else {
                    endCursors(false);
                    endBlock();
                }
                yield "ROLLBACK";
            }
            case Command.IgnoredSetting setting -> {
                refuseInFailedBlock();
                if (setting.name().equals("client_encoding")) {
                    String value = setting.value().replace("'", "").replace("\"", "").strip().toUpperCase(Locale.ROOT);
                    if (!value.equals("UTF8") && !value.equals("UTF-8") && !value.equals("UNICODE")) {
                        throw new WireSqlException("22023", "client_encoding " + setting.value()
                                + " is not supported: the server speaks UTF8 only");
                    }
                }
                yield "SET";
            }
            case Command.Deallocate deallocate -> {
                refuseInFailedBlock();
                if (deallocate.name() == null) {
                    statements.keySet().removeIf(name -> !name.isEmpty());
                    yield "DEALLOCATE ALL";
                }
                if (deallocate.name().isEmpty() || statements.remove(deallocate.name()) == null) {
                    throw new WireSqlException("26000", "prepared statement \"" + deallocate.name() + "\" does not exist");
                }
                yield "DEALLOCATE";
            }
            case Command.CloseCursor close -> closeCursor(close);
            case Command.Declare ignored -> throw new IllegalArgumentException("DECLARE takes the statement's parameters");
            case Command.Fetch ignored -> throw new IllegalArgumentException("FETCH sends rows");
            case Command.Copy ignored -> throw new WireSqlException("0A000",
                    "COPY FROM STDIN and COPY TO STDOUT work through the simple query protocol only");
            case Command.Empty ignored -> throw new IllegalArgumentException("an empty query has no tag");
            case Command.Sql ignored -> throw new IllegalArgumentException("SQL is not a control command");
            case Command.Catalog ignored -> throw new IllegalArgumentException("a catalog query is not a control command");
        };
    }

    private String commit() throws SQLException {
        return switch (block) {
            case NONE -> {
                if (implicit) {
                    endImplicit(true);
                } else {
                    out.send(new BackendMessage.NoticeResponse("25P01", "there is no transaction in progress"));
                }
                yield "COMMIT";
            }
            case OPEN -> {
                block = Block.NONE;
                // Cursors without HOLD end with the block; closing them before the commit spares it moving their
                // unread rows to the heap.
                closeCursorsWithoutHold();
                boolean committed = false;
                try {
                    connection.commit();
                    committed = true;
                } finally {
                    endCursors(committed);
                    endBlock();
                }
                yield "COMMIT";
            }
            case FAILED -> {
                endCursors(false);
                endBlock();
                yield "ROLLBACK";
            }
        };
    }

    /** Rolls back whatever the block left and returns to autocommit. */
    private void endBlock() throws SQLException {
        block = Block.NONE;
        try {
            connection.rollback();
        } finally {
            connection.setAutoCommit(true);
        }
    }

    private void refuseInFailedBlock() {
        if (block == Block.FAILED) {
            throw new WireSqlException("25P02",
                    "current transaction is aborted, commands ignored until end of transaction block");
        }
    }

    // ---- replies ------------------------------------------------------------------------------------

    private void readyForQuery() {
        TransactionStatus status = switch (block) {
            case NONE -> TransactionStatus.IDLE;
            case OPEN -> TransactionStatus.IN_TRANSACTION;
            case FAILED -> TransactionStatus.FAILED;
        };
        out.send(new BackendMessage.ReadyForQuery(status));
        out.flush();
    }

    /** The statement's messages (statistics, PRINT, DBCC) as notices. */
    private void sendNotices(Statement statement) throws SQLException {
        for (SQLWarning warning = statement.getWarnings(); warning != null; warning = warning.getNextWarning()) {
            String state = warning.getSQLState();
            out.send(new BackendMessage.NoticeResponse(state != null && state.length() == SQLSTATE_LENGTH
                    ? state : "01000", warning.getMessage()));
        }
        statement.clearWarnings();
    }

    /** Reports a statement's failure; inside a transaction block the block fails. */
    private void error(Exception failure) {
        if (failure instanceof Outbound.ClientGoneException gone) {
            throw gone;
        }
        String state;
        String message;
        switch (failure) {
            case SQLException sql -> {
                state = sqlState(sql);
                message = sql.getMessage();
            }
            case WireSqlException wire -> {
                state = wire.sqlState();
                message = wire.getMessage();
            }
            case CatalogQueryException catalogFailure -> {
                state = catalogFailure.sqlState();
                message = catalogFailure.getMessage();
            }
            default -> {
                state = "XX000";
                message = "internal error: " + failure;
            }
        }
        if (block == Block.OPEN) {
            block = Block.FAILED;
        }
        out.send(new BackendMessage.ErrorResponse(Severity.ERROR, state, message == null ? state : message));
    }

    private static String sqlState(SQLException e) {
        String state = e.getSQLState();
        return state != null && state.length() == SQLSTATE_LENGTH ? state : "XX000";
    }

    private void fatal(String sqlState, String message) {
        out.send(new BackendMessage.ErrorResponse(Severity.FATAL, sqlState, message));
        closeQuietly();
    }

    private void closeQuietly() {
        close();
        out.close();
    }
}

package dev.columba.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many clients at once, and clients that misbehave: each connection has a thread of its own, so 50 clients
 * work side by side (their write transactions taking turns at the engine's writer lock), and a client that
 * stops reading, sends an oversized or malformed message, or leaves in the middle of a result holds or ends
 * only its own connection.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ClientIsolationTest {
    @TempDir
    static Path directory;
    private static PgServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = PgServer.start(ServerConfig.of(directory.resolve("db")).withPort(0));
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/columba", "tester", "");
    }

    @Test
    void fiftyClientsAtOnceEachGetTheirOwnSessionAndTransactions() throws Exception {
        try (Connection setup = connect(); Statement statement = setup.createStatement()) {
            statement.execute("CREATE TABLE fifty (client INT, n INT)");
        }
        int clients = 50;
        CyclicBarrier allConnected = new CyclicBarrier(clients + 1);
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<Long>> sums = new ArrayList<>();
            for (int client = 0; client < clients; client++) {
                int id = client;
                sums.add(pool.submit(() -> {
                    try (Connection connection = connect();
                         PreparedStatement insert = connection.prepareStatement("INSERT INTO fifty VALUES (?, ?)");
                         PreparedStatement sum = connection.prepareStatement("SELECT SUM(n) FROM fifty WHERE client = ?")) {
                        allConnected.await();
                        connection.setAutoCommit(false);
                        for (int n = 1; n <= 10; n++) {
                            insert.setInt(1, id);
                            insert.setInt(2, n);
                            insert.executeUpdate();
                        }
                        connection.commit();
                        insert.setInt(1, id); // a transaction rolled back leaves nothing
                        insert.setInt(2, 1000);
                        insert.executeUpdate();
                        connection.rollback();
                        connection.setAutoCommit(true);
                        sum.setInt(1, id);
                        try (ResultSet rows = sum.executeQuery()) {
                            rows.next();
                            return rows.getLong(1);
                        }
                    }
                }));
            }
            allConnected.await();
            // Sessions of earlier connections may still be closing: at least the fifty are open.
            assertTrue(server.sessionCount() >= clients, "every client has a session of its own: " + server.sessionCount());
            for (Future<Long> sum : sums) {
                assertEquals(55L, sum.get());
            }
        } finally {
            pool.shutdownNow();
        }
        try (Connection check = connect(); Statement statement = check.createStatement();
             ResultSet rows = statement.executeQuery("SELECT COUNT(*), COUNT(DISTINCT client) FROM fifty")) {
            rows.next();
            assertEquals(500, rows.getLong(1));
            assertEquals(50, rows.getLong(2));
        }
    }

    @Test
    void aClientThatStopsReadingAHugeResultHoldsOnlyItsOwnConnection() throws Exception {
        awaitSessionsAtMost(0); // earlier tests' clients have left; their sessions close on their own threads
        try (RawClient stalled = RawClient.connect(server.port())) {
            // About 200 MB of rows, far more than the socket buffers hold: the session waits for a reader.
            stalled.query("SELECT x, '" + "x".repeat(90) + "' FROM generate_series(1, 2000000) AS a (x)");
            stalled.readSome(); // the result has begun to stream
            try (Connection other = connect(); Statement statement = other.createStatement()) {
                for (int i = 1; i <= 20; i++) {
                    try (ResultSet rows = statement.executeQuery("SELECT " + i + " + 1")) {
                        rows.next();
                        assertEquals(i + 1, rows.getInt(1));
                    }
                }
            }
            awaitSessionsAtMost(1); // the other client's session closes after it left
            assertEquals(1, server.sessionCount(), "the stalled client's session is still there");
        }
        // It left in the middle of its result: its session ends (the next write fails) and frees its place.
        awaitSessionsAtMost(0);
    }

    @Test
    void anOversizedMessageEndsOnlyItsOwnConnection() throws Exception {
        // Announces 2 GB and sends nothing of it.
        assertAProtocolViolationEndsOnlyItsOwnConnection(bad -> bad.send('Q', new byte[0], Integer.MAX_VALUE - 4));
    }

    @Test
    void aMalformedMessageEndsOnlyItsOwnConnection() throws Exception {
        // A Bind cut short in its parameter formats.
        assertAProtocolViolationEndsOnlyItsOwnConnection(bad -> bad.send('B', new byte[] {'p', 0, 's', 0, 0, 7}, -1));
    }

    private interface RawAction {
        void run(RawClient client) throws IOException;
    }

    private static void assertAProtocolViolationEndsOnlyItsOwnConnection(RawAction violation) throws Exception {
        try (Connection other = connect(); Statement statement = other.createStatement();
             RawClient bad = RawClient.connect(server.port())) {
            violation.run(bad);
            RawClient.Message error = bad.readUntil('E');
            assertTrue(error.text().contains("08P01"), error.text());
            assertTrue(bad.closedByServer(), "the server closes the connection after a protocol violation");
            try (ResultSet rows = statement.executeQuery("SELECT 42")) {
                rows.next();
                assertEquals(42, rows.getInt(1));
            }
        }
    }

    @Test
    void aConnectionPastTheLimitIsRefusedWith53300AndTheOthersGoOn() throws Exception {
        try (PgServer small = PgServer.start(ServerConfig.of(directory.resolve("small")).withPort(0).withMaxConnections(2));
             Connection first = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + small.port() + "/c", "a", "");
             Connection second = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + small.port() + "/c", "b", "")) {
            SQLException refused = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + small.port() + "/c", "c", "").close());
            assertEquals("53300", refused.getSQLState(), refused.getMessage());
            for (Connection connection : List.of(first, second)) {
                try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery("SELECT 7")) {
                    rows.next();
                    assertEquals(7, rows.getInt(1));
                }
            }
        }
    }

    @Test
    void statisticsMessagesArriveAsNoticesBeforeTheResultEnds() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE noticed (id INT NOT NULL PRIMARY KEY)");
            statement.execute("INSERT INTO noticed VALUES (1), (2)");
            statement.execute("SET STATISTICS IO ON");
            try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM noticed")) {
                rows.next();
                assertEquals(2, rows.getInt(1));
            }
            java.sql.SQLWarning warning = statement.getWarnings();
            assertTrue(warning != null && warning.getMessage().startsWith("Table 'noticed'. Scan count 1, logical reads "),
                    String.valueOf(warning));
            assertEquals("01000", warning.getSQLState());
        }
    }

    /** Waits until the server has at most {@code count} sessions (a session closes on its own thread, after its client left). */
    private static void awaitSessionsAtMost(int count) throws InterruptedException {
        while (server.sessionCount() > count) {
            Thread.sleep(10);
        }
    }

    /** A hand-made protocol v3 client, for what no well-behaved driver does. */
    private static final class RawClient implements AutoCloseable {
        record Message(char type, byte[] body) {
            String text() {
                return new String(body, StandardCharsets.UTF_8);
            }
        }

        private static final int READ_TIMEOUT_MS = 120_000;

        private final Socket socket;
        private final DataInputStream in;
        private final DataOutputStream out;

        private RawClient(Socket socket) throws IOException {
            this.socket = socket;
            this.in = new DataInputStream(socket.getInputStream());
            this.out = new DataOutputStream(socket.getOutputStream());
        }

        /** Connects and logs in (trust on loopback), returning at the first ReadyForQuery. */
        static RawClient connect(int port) throws IOException {
            Socket socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(READ_TIMEOUT_MS); // a server that neither answers nor closes fails the read
            RawClient client = new RawClient(socket);
            ByteArrayOutputStream startup = new ByteArrayOutputStream();
            DataOutputStream body = new DataOutputStream(startup);
            body.writeInt(196608);
            for (String part : new String[] {"user", "raw", "database", "columba"}) {
                body.write(part.getBytes(StandardCharsets.UTF_8));
                body.write(0);
            }
            body.write(0);
            client.out.writeInt(startup.size() + 4);
            client.out.write(startup.toByteArray());
            client.out.flush();
            client.readUntil('Z');
            return client;
        }

        void query(String sql) throws IOException {
            byte[] text = sql.getBytes(StandardCharsets.UTF_8);
            byte[] body = new byte[text.length + 1];
            System.arraycopy(text, 0, body, 0, text.length);
            send('Q', body, -1);
        }

        /** Sends a message; {@code announcedLength} other than -1 is put in its length field instead of the true one. */
        void send(char type, byte[] body, int announcedLength) throws IOException {
            out.writeByte(type);
            out.writeInt(announcedLength == -1 ? body.length + 4 : announcedLength);
            out.write(body);
            out.flush();
        }

        Message read() throws IOException {
            char type = (char) in.readUnsignedByte();
            byte[] body = new byte[in.readInt() - 4];
            in.readFully(body);
            return new Message(type, body);
        }

        Message readUntil(char type) throws IOException {
            Message message;
            do {
                message = read();
            } while (message.type() != type);
            return message;
        }

        /** Reads a few messages, then stops reading. */
        void readSome() throws IOException {
            for (int i = 0; i < 10; i++) {
                read();
            }
        }

        /** True when the server has closed the connection (end of stream, after whatever it sent last). */
        boolean closedByServer() throws IOException {
            try {
                while (true) {
                    read();
                }
            } catch (EOFException | java.net.SocketException closed) {
                return true;
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}

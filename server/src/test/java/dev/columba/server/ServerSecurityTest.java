package dev.columba.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Logins, SCRAM-SHA-256 and TLS with the real clients: pgJDBC (its own SCRAM client) and psql (libpq's),
 * when the machine has psql.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ServerSecurityTest {
    @TempDir
    static Path directory;
    private static Path keyStore;

    /** A self-signed PKCS12 key store made by the JDK's keytool, as a user would make one. */
    @BeforeAll
    static void makeKeyStore() throws Exception {
        keyStore = directory.resolve("server.p12");
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process process = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "columba", "-keyalg", "RSA",
                "-keysize", "2048", "-validity", "2", "-dname", "CN=localhost", "-storetype", "PKCS12",
                "-keystore", keyStore.toString(), "-storepass", "changeit", "-keypass", "changeit")
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(2, TimeUnit.MINUTES), "keytool did not finish");
        assertEquals(0, process.exitValue(), output);
    }

    private static Path database(String name) throws SQLException {
        Path database = directory.resolve(name);
        try (Connection embedded = DriverManager.getConnection("jdbc:columba:" + database);
             Statement statement = embedded.createStatement()) {
            statement.execute("CREATE LOGIN alice WITH PASSWORD = 'Wonder-land1'");
            statement.execute("ALTER SERVER ROLE sysadmin ADD MEMBER alice");
            statement.execute("CREATE USER bob WITH PASSWORD 'b0b''s secret'");
        }
        return database;
    }

    private static Connection connect(PgServer server, String user, String password, String extra) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/columba" + extra,
                properties);
    }

    private static long scalar(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            assertTrue(rows.next());
            return rows.getLong(1);
        }
    }

    @Test
    void loginsAuthenticateWithScramAndWrongOrUnknownGetTheSame28P01() throws Exception {
        Path database = database("scram");
        try (PgServer server = PgServer.start(ServerConfig.of(database).withPort(0)
                .withAuthentication(ServerConfig.Authentication.SCRAM))) {
            try (Connection alice = connect(server, "alice", "Wonder-land1", "")) {
                assertEquals(1, scalar(alice, "SELECT 1"));
            }
            try (Connection bob = connect(server, "BOB", "b0b's secret", "")) {
                assertEquals(2, scalar(bob, "SELECT 2"), "login names are matched ignoring case");
            }
            SQLException wrong = assertThrows(SQLException.class, () -> connect(server, "alice", "wonder-land1", ""));
            assertEquals("28P01", wrong.getSQLState(), wrong.getMessage());
            SQLException unknown = assertThrows(SQLException.class, () -> connect(server, "mallory", "Wonder-land1", ""));
            assertEquals("28P01", unknown.getSQLState(), unknown.getMessage());
            // The same words, but for the name: nothing tells an unknown user from a wrong password.
            assertEquals(wrong.getMessage().replace("alice", "?"), unknown.getMessage().replace("mallory", "?"));
        }
    }

    @Test
    void onlySysadminLoginsManageLoginsAndMembershipIsCheckedAtEachStatement() throws Exception {
        Path database = database("roles");
        try (PgServer server = PgServer.start(ServerConfig.of(database).withPort(0)
                .withAuthentication(ServerConfig.Authentication.SCRAM));
             Connection alice = connect(server, "alice", "Wonder-land1", "");
             Connection bob = connect(server, "bob", "b0b's secret", "");
             Statement asAlice = alice.createStatement();
             Statement asBob = bob.createStatement()) {
            assertEquals("on", alice.unwrap(org.postgresql.PGConnection.class).getParameterStatus("is_superuser"));
            assertEquals("off", bob.unwrap(org.postgresql.PGConnection.class).getParameterStatus("is_superuser"));
            assertEquals(4, scalar(bob, "SELECT 4"), "a login in no role still runs queries");
            for (String sql : List.of("CREATE LOGIN carol WITH PASSWORD = 'c'", "ALTER LOGIN alice WITH PASSWORD = 'x'",
                    "ALTER LOGIN bob WITH PASSWORD = 'mine now'", "DROP LOGIN alice", "ALTER USER bob WITH SUPERUSER",
                    "ALTER SERVER ROLE sysadmin ADD MEMBER bob")) {
                SQLException refused = assertThrows(SQLException.class, () -> asBob.execute(sql), sql);
                assertEquals("42501", refused.getSQLState(), refused.getMessage());
                assertTrue(refused.getMessage().contains("login 'bob' is not one"), refused.getMessage());
            }
            SQLException noRole = assertThrows(SQLException.class,
                    () -> asAlice.execute("ALTER SERVER ROLE dbcreator ADD MEMBER bob"));
            assertEquals("42P01", noRole.getSQLState(), noRole.getMessage());
            // Membership is read at each statement: bob's open session gains and loses it at once.
            asAlice.execute("ALTER SERVER ROLE sysadmin ADD MEMBER bob");
            asBob.execute("CREATE LOGIN carol WITH PASSWORD = 'c'");
            asAlice.execute("ALTER USER bob WITH NOSUPERUSER");
            assertEquals("42501", assertThrows(SQLException.class, () -> asBob.execute("DROP LOGIN carol")).getSQLState());
            asAlice.execute("DROP LOGIN carol");
            try (ResultSet rows = asAlice.executeQuery("SELECT name, is_sysadmin FROM sys.server_principals ORDER BY name")) {
                StringBuilder seen = new StringBuilder();
                while (rows.next()) {
                    seen.append(rows.getString(1)).append('=').append(rows.getBoolean(2)).append(' ');
                }
                assertEquals("alice=true bob=false ", seen.toString());
            }
        }
        // The database's owner (an embedded connection) may always.
        try (Connection owner = DriverManager.getConnection("jdbc:columba:" + database);
             Statement statement = owner.createStatement()) {
            statement.execute("ALTER SERVER ROLE sysadmin DROP MEMBER alice");
            statement.execute("DROP LOGIN bob");
            // Marked as a login, a connection has that login's rights from then on, and no way back.
            dev.columba.jdbc.ColumbaConnection columba = owner.unwrap(dev.columba.jdbc.ColumbaConnection.class);
            columba.authenticatedAs("alice");
            assertEquals("42501", assertThrows(SQLException.class,
                    () -> statement.execute("CREATE LOGIN dave WITH PASSWORD = 'd'")).getSQLState());
            assertEquals("22023", assertThrows(SQLException.class, () -> columba.authenticatedAs("owner")).getSQLState());
        }
    }

    @Test
    void alterAndDropLoginTakeEffectForTheNextConnectionAndSurviveARestart() throws Exception {
        Path database = database("alter");
        ServerConfig config = ServerConfig.of(database).withPort(0).withAuthentication(ServerConfig.Authentication.SCRAM);
        try (PgServer server = PgServer.start(config)) {
            try (Connection alice = connect(server, "alice", "Wonder-land1", "");
                 Statement statement = alice.createStatement()) {
                statement.execute("ALTER LOGIN alice WITH PASSWORD = 'N3w one'");
                statement.execute("DROP USER bob");
                SQLException twice = assertThrows(SQLException.class,
                        () -> statement.execute("CREATE LOGIN alice WITH PASSWORD = 'x'"));
                assertEquals("42P07", twice.getSQLState(), twice.getMessage());
                SQLException missing = assertThrows(SQLException.class, () -> statement.execute("DROP LOGIN bob"));
                assertEquals("42P01", missing.getSQLState(), missing.getMessage());
                try (ResultSet rows = statement.executeQuery("SELECT * FROM sys.server_principals")) {
                    List<String> seen = new ArrayList<>();
                    while (rows.next()) {
                        StringBuilder row = new StringBuilder();
                        for (int column = 1; column <= rows.getMetaData().getColumnCount(); column++) {
                            row.append(rows.getString(column)).append('|');
                        }
                        seen.add(row.toString());
                    }
                    assertEquals(1, seen.size(), seen.toString());
                    assertTrue(seen.get(0).startsWith("alice|"), seen.toString());
                    assertTrue(seen.get(0).endsWith("|S|SQL_LOGIN|SCRAM-SHA-256|t|"), seen.toString());
                    assertFalse(seen.get(0).contains("$"), "no verifier shown: " + seen);
                }
            }
            assertEquals("28P01", assertThrows(SQLException.class,
                    () -> connect(server, "alice", "Wonder-land1", "")).getSQLState());
            assertEquals("28P01", assertThrows(SQLException.class,
                    () -> connect(server, "bob", "b0b's secret", "")).getSQLState());
        }
        // The catalog change is durable: a new server on the same directory knows the new password.
        try (PgServer again = PgServer.start(config); Connection alice = connect(again, "alice", "N3w one", "")) {
            assertEquals(3, scalar(alice, "SELECT 3"));
        }
        // And the data file holds no password.
        try (var files = Files.walk(database)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                String bytes = new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1);
                assertFalse(bytes.contains("N3w one") || bytes.contains("Wonder-land1"), file + " holds a password");
            }
        }
    }

    @Test
    void theServerRefusesToStartWhereNoOneCouldLogIn() throws Exception {
        Path empty = directory.resolve("empty");
        IllegalStateException none = assertThrows(IllegalStateException.class, () -> PgServer.start(
                ServerConfig.of(empty).withPort(0).withAuthentication(ServerConfig.Authentication.SCRAM)));
        assertTrue(none.getMessage().contains("CREATE LOGIN"), none.getMessage());
        IllegalArgumentException trust = assertThrows(IllegalArgumentException.class, () -> new ServerConfig(empty,
                "0.0.0.0", 0, java.util.Optional.empty(), ServerConfig.Authentication.TRUST, java.util.Optional.empty(),
                false, 10, 1 << 20, ServerConfig.NO_METRICS));
        assertTrue(trust.getMessage().contains("trust"), trust.getMessage());
        assertEquals(ServerConfig.Authentication.SCRAM, ServerConfig.of(empty).withHost("0.0.0.0").authentication());
        assertEquals(ServerConfig.Authentication.TRUST, ServerConfig.defaultAuthentication("127.0.0.1", false));
    }

    @Test
    void thePasswordOptionIsAScramPasswordForUsersWithoutALogin() throws Exception {
        Path database = database("shared");
        try (PgServer server = PgServer.start(ServerConfig.of(database).withPort(0).withPassword("sh4red"))) {
            try (Connection anyone = connect(server, "carol", "sh4red", "")) {
                assertEquals(1, scalar(anyone, "SELECT 1"));
            }
            // A login's own password wins over the shared one.
            assertEquals("28P01", assertThrows(SQLException.class,
                    () -> connect(server, "alice", "sh4red", "")).getSQLState());
            try (Connection alice = connect(server, "alice", "Wonder-land1", "")) {
                assertEquals(1, scalar(alice, "SELECT 1"));
            }
        }
    }

    @Test
    void sslRequireWorksOverTlsAndFailsWithoutIt() throws Exception {
        Path database = database("tls");
        try (PgServer server = PgServer.start(ServerConfig.of(database).withPort(0)
                .withAuthentication(ServerConfig.Authentication.SCRAM).withTls(keyStore, "changeit", true))) {
            try (Connection tls = connect(server, "alice", "Wonder-land1", "?sslmode=require")) {
                assertEquals(1, scalar(tls, "SELECT 1"));
                assertEquals(5, scalar(tls, "SELECT COUNT(*) FROM (VALUES (1), (2), (3), (4), (5)) AS v (x)"));
            }
            // Loopback clients may still connect in the clear when TLS is required from other machines.
            try (Connection plain = connect(server, "alice", "Wonder-land1", "?sslmode=disable")) {
                assertEquals(1, scalar(plain, "SELECT 1"));
            }
            assertEquals("28P01", assertThrows(SQLException.class,
                    () -> connect(server, "alice", "nope", "?sslmode=require")).getSQLState());
        }
        try (PgServer plain = PgServer.start(ServerConfig.of(database).withPort(0)
                .withAuthentication(ServerConfig.Authentication.SCRAM))) {
            SQLException refused = assertThrows(SQLException.class,
                    () -> connect(plain, "alice", "Wonder-land1", "?sslmode=require"));
            assertTrue(refused.getMessage().contains("SSL"), refused.getMessage());
        }
    }

    @Test
    void aWrongKeyStorePasswordStopsTheStart() {
        IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class, () -> PgServer.start(
                ServerConfig.of(directory.resolve("badtls")).withPort(0).withTls(keyStore, "wrong", false)));
        assertTrue(wrong.getMessage().contains("key store"), wrong.getMessage());
    }

    @Test
    void psqlAuthenticatesWithScramAndTls() throws Exception {
        Assumptions.assumeTrue(PsqlClient.installed(), "psql is not installed on this machine (not on PATH): skipped");
        Path database = database("psql");
        try (PgServer server = PgServer.start(ServerConfig.of(database).withPort(0)
                .withAuthentication(ServerConfig.Authentication.SCRAM).withTls(keyStore, "changeit", false))) {
            PsqlClient psql = PsqlClient.find(server.port(), directory);
            PsqlClient.Run tls = psql.run("alice", Map.of("PGPASSWORD", "Wonder-land1", "PGSSLMODE", "require"),
                    List.of("-A", "-t"), "SELECT 40 + 2");
            assertEquals(0, tls.exitCode(), tls.err());
            assertEquals("42\n", tls.out());
            // libpq binds SCRAM to the TLS channel when it is offered; require makes it refuse to go on without.
            PsqlClient.Run bound = psql.run("alice", Map.of("PGPASSWORD", "Wonder-land1", "PGSSLMODE", "require",
                    "PGCHANNELBINDING", "require"), List.of("-A", "-t"), "SELECT 6 * 7");
            assertEquals(0, bound.exitCode(), bound.err());
            assertEquals("42\n", bound.out());
            PsqlClient.Run unbound = psql.run("bob", Map.of("PGPASSWORD", "b0b's secret", "PGSSLMODE", "disable",
                    "PGCHANNELBINDING", "require"), List.of("-A", "-t"), "SELECT 1");
            assertEquals(2, unbound.exitCode(), unbound.out());
            assertTrue(unbound.err().contains("channel binding"), unbound.err());
            PsqlClient.Run plain = psql.run("bob", Map.of("PGPASSWORD", "b0b's secret", "PGSSLMODE", "disable"),
                    List.of("-A", "-t"), "SELECT 7");
            assertEquals(0, plain.exitCode(), plain.err());
            assertEquals("7\n", plain.out());
            PsqlClient.Run wrong = psql.run("alice", Map.of("PGPASSWORD", "nope", "PGSSLMODE", "require"),
                    List.of("-A", "-t"), "SELECT 1");
            assertEquals(2, wrong.exitCode(), wrong.out());
            assertTrue(wrong.err().contains("password authentication failed for user \"alice\""), wrong.err());
        }
    }
}

package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.auth.ScramVerifier;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CREATE, ALTER and DROP LOGIN in the embedded engine: verifiers in the catalog, transactional, never the password. */
class LoginTest {
    @TempDir
    Path directory;

    @Test
    void aLoginIsAVerifierOfItsPasswordAndFollowsItsTransaction() throws SQLException {
        String url = "jdbc:columba:" + directory.resolve("db");
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            ColumbaConnection columba = connection.unwrap(ColumbaConnection.class);
            statement.execute("CREATE LOGIN \"Ann\" WITH PASSWORD = 'pencil'");
            String verifier = columba.loginVerifier("ann").orElseThrow();
            assertTrue(verifier.startsWith("SCRAM-SHA-256$4096:"), verifier);
            assertFalse(verifier.contains("pencil"));
            ScramVerifier parsed = ScramVerifier.parse(verifier);
            assertEquals(ScramVerifier.create("pencil", parsed.salt(), 4096), parsed, "the verifier is of 'pencil'");

            // A login and a table may share a name: logins are a namespace of their own.
            statement.execute("CREATE TABLE ann (id INT)");
            statement.execute("DROP TABLE ann");
            assertTrue(columba.loginVerifier("ann").isPresent());

            connection.setAutoCommit(false);
            statement.execute("CREATE USER ben WITH PASSWORD 'x1'");
            statement.execute("DROP LOGIN ann");
            connection.rollback();
            connection.setAutoCommit(true);
            assertEquals(Optional.empty(), columba.loginVerifier("ben"));
            assertEquals(verifier, columba.loginVerifier("ANN").orElseThrow());
            assertEquals(1, columba.loginCount());

            statement.execute("ALTER USER ann PASSWORD 'pen'");
            assertFalse(verifier.equals(columba.loginVerifier("ann").orElseThrow()));
            assertEquals("22023", assertThrows(SQLException.class,
                    () -> statement.execute("CREATE LOGIN carl WITH PASSWORD = ''")).getSQLState());
            SQLException noPassword = assertThrows(SQLException.class, () -> statement.execute("CREATE LOGIN carl"));
            assertTrue(noPassword.getMessage().contains("CREATE LOGIN needs WITH PASSWORD"), noPassword.getMessage());
            assertEquals("42P01", assertThrows(SQLException.class,
                    () -> statement.execute("ALTER LOGIN carl WITH PASSWORD = 'y'")).getSQLState());
        }
        // Reopened, the login is there (and LOGIN and PASSWORD still name columns).
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            assertTrue(connection.unwrap(ColumbaConnection.class).loginVerifier("ann").isPresent());
            statement.execute("CREATE TABLE accounts (login VARCHAR(20), password VARCHAR(20))");
            statement.execute("INSERT INTO accounts (login, password) VALUES ('a', 'b')");
        }
    }
}

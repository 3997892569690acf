package dev.columba.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.server.PsqlClient.Run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The server driven by the real psql (libpq, simple query protocol), when the machine has psql. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class PsqlTest {
    @TempDir
    static Path directory;
    private static PgServer server;
    private static PsqlClient psql;

    @BeforeAll
    static void startServer() throws Exception {
        Assumptions.assumeTrue(PsqlClient.installed(), "psql is not installed on this machine (not on PATH): skipped");
        server = PgServer.start(ServerConfig.of(directory.resolve("db")).withPort(0));
        psql = PsqlClient.find(server.port(), directory);
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static Run psql(String sql) throws IOException, InterruptedException {
        return psql.run(List.of("-A", "-t", "-v", "VERBOSITY=verbose"), sql);
    }

    @Test
    void runsAMultiStatementQueryAndPrintsEveryResult() throws Exception {
        Run run = psql("CREATE TABLE fruit (id INT, name VARCHAR(20), price DECIMAL(6, 2));"
                + " INSERT INTO fruit VALUES (1, 'apple', 1.25), (2, 'pear', 0.5);"
                + " SELECT name, price FROM fruit ORDER BY id; SELECT COUNT(*) FROM fruit");
        assertEquals(0, run.exitCode(), run.err());
        // psql 15 prints each statement's result (its tag, or its rows) in order.
        assertEquals("CREATE TABLE\nINSERT 0 2\napple|1.25\npear|0.50\n2\n", run.out());

        Run select = psql("SELECT name, price, price * 2 AS doubled, id = 1 AS first FROM fruit ORDER BY id");
        assertEquals(0, select.exitCode(), select.err());
        assertEquals("apple|1.25|2.50|t\npear|0.50|1.00|f\n", select.out());
    }

    @Test
    void anErrorPrintsItsSqlStateAndFailsTheRun() throws Exception {
        Run run = psql("SELECT * FROM no_such_table");
        assertEquals(1, run.exitCode());
        assertTrue(run.err().contains("ERROR:  42P01:"), run.err());
    }

    @Test
    void anEmptyQueryAndTransactionControlWork() throws Exception {
        Run run = psql("BEGIN; CREATE TABLE kept (id INT); INSERT INTO kept VALUES (7); COMMIT;"
                + " BEGIN; INSERT INTO kept VALUES (8); ROLLBACK; SELECT SUM(id) FROM kept");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("BEGIN\nCREATE TABLE\nINSERT 0 1\nCOMMIT\nBEGIN\nINSERT 0 1\nROLLBACK\n7\n", run.out());
        Run empty = psql(";");
        assertEquals(0, empty.exitCode(), empty.err());
    }

    @Test
    void unicodeParametersComeBackAsSent() throws Exception {
        try (var connection = java.sql.DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + server.port() + "/db", "tester", "");
             var statement = connection.createStatement();
             var insert = connection.prepareStatement("INSERT INTO words VALUES (?)")) {
            statement.execute("CREATE TABLE words (word VARCHAR(50))");
            insert.setString(1, "日本語 ✓ é");
            insert.executeUpdate();
        }
        Run run = psql("SELECT word FROM words");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("日本語 ✓ é\n", run.out());
    }

    @Test
    void backslashCopyLoadsAFileAndWritesOneThroughTheServer() throws Exception {
        Path in = directory.resolve("fruit-in.csv");
        Files.writeString(in, "name,price\nfig,2.25\n\"kiwi, gold\",3.00\nlime,\n", StandardCharsets.UTF_8);
        assertEquals(0, psql("CREATE TABLE basket (name VARCHAR(20), price DECIMAL(6, 2))").exitCode());
        // psql reads the file itself and sends it as COPY basket FROM STDIN with the options.
        Run load = psql("\\copy basket from '" + in + "' with (format csv, header)");
        assertEquals(0, load.exitCode(), load.err());
        assertEquals("COPY 3\n", load.out());
        Path out = directory.resolve("fruit-out.txt");
        Run write = psql("\\copy (SELECT name, price FROM basket ORDER BY name) to '" + out + "'");
        assertEquals(0, write.exitCode(), write.err());
        assertEquals("fig\t2.25\nkiwi, gold\t3.00\nlime\t\\N\n", Files.readString(out, StandardCharsets.UTF_8));
    }

    @Test
    void cursorsDeclaredFetchedMovedAndClosedInOneQuery() throws Exception {
        assertEquals(0, psql("CREATE TABLE letters (id INT, letter VARCHAR(1));"
                + " INSERT INTO letters VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e')").exitCode());
        Run run = psql("BEGIN; DECLARE c NO SCROLL CURSOR FOR SELECT id, letter FROM letters ORDER BY id;"
                + " FETCH 2 FROM c; MOVE 1 IN c; FETCH ALL FROM c; CLOSE c; COMMIT");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("BEGIN\nDECLARE CURSOR\n1|a\n2|b\nMOVE 1\n4|d\n5|e\nCLOSE CURSOR\nCOMMIT\n", run.out());
        Run outside = psql("DECLARE c CURSOR FOR SELECT 1");
        assertEquals(1, outside.exitCode());
        assertTrue(outside.err().contains("ERROR:  25P01:"), outside.err());
    }

    /** psql's FETCH_COUNT reads a query through a cursor of its own, FETCH_COUNT rows at a time. */
    @Test
    void psqlsFetchCountReadsThroughACursor() throws Exception {
        Run run = psql.run(List.of("-A", "-t", "-v", "FETCH_COUNT=3"),
                "SELECT generate_series FROM generate_series(1, 10)");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", run.out());
    }

    @Test
    void informationSchemaAnswersPsqlsQueries() throws Exception {
        assertEquals(0, psql("CREATE TABLE shelves (id INT NOT NULL, label VARCHAR(30))").exitCode());
        Run run = psql("SELECT column_name, data_type, is_nullable, character_maximum_length"
                + " FROM information_schema.columns WHERE table_name = 'shelves' ORDER BY ordinal_position");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("id|integer|NO|\nlabel|character varying|YES|30\n", run.out());
    }
}

package dev.columba.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.server.PsqlClient.Run;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * psql 15's describe commands against the server: the catalog queries they send (seen with {@code psql -E}) are
 * answered from Columba's catalog, and psql prints tables, columns, types, keys and indexes as it does for
 * PostgreSQL.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class PsqlCatalogTest {
    @TempDir
    static Path directory;
    private static PgServer server;
    private static PsqlClient psql;

    @BeforeAll
    static void startServer() throws Exception {
        Assumptions.assumeTrue(PsqlClient.installed(), "psql is not installed on this machine (not on PATH): skipped");
        server = PgServer.start(ServerConfig.of(directory.resolve("db")).withPort(0));
        psql = PsqlClient.find(server.port(), directory);
        Run setup = psql.run(List.of(), "CREATE TABLE orders (order_id BIGINT NOT NULL, line INT NOT NULL,"
                + " amount DECIMAL(10, 2) CHECK (amount >= 0), note VARCHAR(100) DEFAULT 'none', shipped DATE,"
                + " PRIMARY KEY (order_id, line));"
                + " CREATE UNIQUE INDEX orders_note ON orders (note);"
                + " CREATE TABLE Events (Id INT IDENTITY(1, 1) PRIMARY KEY, happened TIMESTAMP, ok BOOLEAN, size DOUBLE);"
                + " CREATE TABLE log (message VARCHAR(20)) WITH (STORAGE = COLUMNSTORE);"
                + " CREATE VIEW big_orders AS SELECT order_id, amount FROM orders WHERE amount > 100");
        assertEquals(0, setup.exitCode(), setup.err());
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static String describe(String command) throws Exception {
        Run run = psql.run(List.of(), command);
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.err());
        return run.out();
    }

    @Test
    void listsTablesAndViews() throws Exception {
        assertEquals("""
                          List of relations
                 Schema |    Name    | Type  | Owner \s
                --------+------------+-------+--------
                 public | Events     | table | tester
                 public | big_orders | view  | tester
                 public | log        | table | tester
                 public | orders     | table | tester
                (4 rows)

                """, describe("\\d"));
        assertEquals("""
                        List of relations
                 Schema |  Name  | Type  | Owner \s
                --------+--------+-------+--------
                 public | Events | table | tester
                 public | log    | table | tester
                 public | orders | table | tester
                (3 rows)

                """, describe("\\dt"));
        assertEquals("""
                 public|big_orders|view|tester
                """.strip() + "\n", psql.run(List.of("-A", "-t"), "\\dv").out());
        assertEquals("public|Events_pkey|index|tester|Events\npublic|orders_note|index|tester|orders\n"
                + "public|orders_pkey|index|tester|orders\n", psql.run(List.of("-A", "-t"), "\\di").out());
        // The table's organisation is its access method.
        assertEquals("public|log|table|tester|permanent|columnstore||\npublic|orders|table|tester|permanent|btree||\n",
                psql.run(List.of("-A", "-t"), "\\dt+ (log|orders)").out());
    }

    @Test
    void describesATableWithItsTypesKeysIndexesAndChecks() throws Exception {
        assertEquals("""
                                       Table "public.orders"
                  Column  |          Type          | Collation | Nullable | Default\s
                ----------+------------------------+-----------+----------+---------
                 order_id | bigint                 |           | not null |\s
                 line     | integer                |           | not null |\s
                 amount   | numeric(10,2)          |           |          |\s
                 note     | character varying(100) |           |          | 'none'
                 shipped  | date                   |           |          |\s
                Indexes:
                    "orders_pkey" PRIMARY KEY, btree (order_id, line) CLUSTER
                    "orders_note" UNIQUE, btree (note)
                Check constraints:
                    "orders_amount_check" CHECK ([amount] >= 0)

                """, describe("\\d orders"));
    }

    @Test
    void describesAnIndex() throws Exception {
        assertEquals("""
                       Index "public.orders_pkey"
                  Column  |  Type   | Key? | Definition\s
                ----------+---------+------+------------
                 order_id | bigint  | yes  | order_id
                 line     | integer | yes  | line
                primary key, btree, for table "public.orders", clustered

                """, describe("\\d orders_pkey"));
        assertTrue(describe("\\d orders_note").contains("unique, btree, for table \"public.orders\"\n"));
    }

    @Test
    void describesAnIdentityKeyAndMatchesNamesIgnoringCase() throws Exception {
        String events = describe("\\d events");
        assertTrue(events.startsWith("                                    Table \"public.Events\"\n"), events);
        assertTrue(events.contains(" Id       | integer                     |           | not null | generated always as identity\n"),
                events);
        assertTrue(events.contains(" happened | timestamp without time zone |           |          | \n"), events);
        assertTrue(events.contains(" ok       | boolean                     |"), events);
        assertTrue(events.contains(" size     | double precision            |"), events);
        assertTrue(events.contains("    \"Events_pkey\" PRIMARY KEY, btree (\"Id\") CLUSTER\n"), events);
    }

    @Test
    void describesAViewAndItsDefinition() throws Exception {
        String view = describe("\\d+ big_orders");
        assertTrue(view.contains("View \"public.big_orders\""), view);
        assertTrue(view.contains(" order_id | bigint        |"), view);
        assertTrue(view.contains(" amount   | numeric(10,2) |"), view);
        assertTrue(view.contains("View definition:\n"), view);
    }

    @Test
    void describesSystemViewsUnderSys() throws Exception {
        String tables = describe("\\d sys.tables");
        assertTrue(tables.contains("View \"sys.tables\""), tables);
        assertTrue(tables.contains(" object_id  | integer                |"), tables);
        Run list = psql.run(List.of("-A", "-t"), "\\dv sys.*");
        assertTrue(list.out().contains("sys|tables|view|tester\n"), list.out());
        assertTrue(list.out().contains("sys|columns|view|tester\n"), list.out());
    }

    @Test
    void aMissingRelationIsReportedAsPsqlDoes() throws Exception {
        Run run = psql.run(List.of(), "\\d no_such_table");
        assertEquals(1, run.exitCode());
        assertEquals("Did not find any relation named \"no_such_table\".\n", run.err());
    }

    @Test
    void listsSchemasTheDatabaseTheRoleAndNoFunctions() throws Exception {
        assertEquals("public|tester\nsys|tester\n", psql.run(List.of("-A", "-t"), "\\dn").out());
        assertEquals("tester|Superuser, Create role|{}\n", psql.run(List.of("-A", "-t"), "\\du").out());
        assertEquals("db|tester|UTF8|C|C||libc|\n", psql.run(List.of("-A", "-t"), "\\l").out());
        Run functions = psql.run(List.of("-A"), "\\df");
        assertEquals(0, functions.exitCode(), functions.err());
        assertEquals("List of functions\nSchema|Name|Result data type|Argument data types|Type\n(0 rows)\n", functions.out());
    }

    @Test
    void listsTheDatabasesLoginsAsRoles() throws Exception {
        Run created = psql.run(List.of(), "CREATE LOGIN du_alice WITH PASSWORD = 'secret-1';"
                + " CREATE USER du_bob WITH SUPERUSER PASSWORD 'secret-2'");
        assertEquals(0, created.exitCode(), created.err());
        try {
            assertEquals("du_alice||{}\ndu_bob|Superuser, Create role|{}\ntester|Superuser, Create role|{}\n",
                    psql.run(List.of("-A", "-t"), "\\du").out());
            assertEquals("du_bob|Superuser, Create role|{}\n", psql.run(List.of("-A", "-t"), "\\du du_b*").out());
        } finally {
            Run dropped = psql.run(List.of(), "DROP LOGIN du_alice; DROP LOGIN du_bob");
            assertEquals(0, dropped.exitCode(), dropped.err());
        }
        assertEquals("tester|Superuser, Create role|{}\n", psql.run(List.of("-A", "-t"), "\\du").out());
    }

    @Test
    void anUnknownCatalogQueryIsRefusedAndTheConnectionGoesOn() throws Exception {
        Run run = psql.run(List.of("-v", "VERBOSITY=verbose"), "SELECT * FROM pg_catalog.pg_operator; SELECT 1");
        assertEquals(1, run.exitCode());
        assertTrue(run.err().contains("ERROR:  0A000:"), run.err());
        Run after = psql.run(List.of("-A", "-t"), "SELECT current_database()");
        assertEquals("db\n", after.out());
    }
}

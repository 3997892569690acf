package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver through JDBI, a generic JDBC library, as an application or a tool uses it: a {@link ColumbaDataSource},
 * named parameters of the common Java types, generated keys of an IDENTITY column, rows mapped by their column
 * labels and types, JDBC escapes, and the tables and system views listed through {@link java.sql.DatabaseMetaData}.
 */
class JdbiTest {
    @TempDir
    Path directory;

    record Person(long id, String name, LocalDate born, LocalDateTime seen, BigDecimal balance, UUID tag) {
    }

    @Test
    void anApplicationWorksThroughJdbi() {
        Jdbi jdbi = Jdbi.create(new ColumbaDataSource("jdbc:columba:" + directory.resolve("db")));
        UUID tag = UUID.fromString("1b4e28ba-2fa1-11d2-883f-0016d3cca427");
        jdbi.useHandle(handle -> {
            handle.execute("CREATE TABLE person (id BIGINT IDENTITY(1, 1) PRIMARY KEY, name VARCHAR(40) NOT NULL,"
                    + " born DATE, seen TIMESTAMP, balance DECIMAL(10, 2), tag UUID)");
            List<Long> keys = List.of(
                    insert(handle, "Ada", LocalDate.of(1815, 12, 10), LocalDateTime.of(2024, 5, 1, 10, 30, 15),
                            new BigDecimal("12.50"), tag),
                    insert(handle, "Grace", LocalDate.of(1906, 12, 9), null, null, null));
            assertEquals(List.of(1L, 2L), keys);

            List<Person> people = handle.createQuery("SELECT * FROM person WHERE born < :before ORDER BY id")
                    .bind("before", LocalDate.of(2000, 1, 1))
                    .map((rows, context) -> new Person(rows.getLong("id"), rows.getString("name"),
                            rows.getObject("born", LocalDate.class), rows.getObject("seen", LocalDateTime.class),
                            rows.getBigDecimal("balance"), rows.getObject("tag", UUID.class)))
                    .list();
            assertEquals(List.of(
                    new Person(1, "Ada", LocalDate.of(1815, 12, 10), LocalDateTime.of(2024, 5, 1, 10, 30, 15),
                            new BigDecimal("12.50"), tag),
                    new Person(2, "Grace", LocalDate.of(1906, 12, 9), null, null, null)), people);

            // JDBI's own column mappers, chosen by the Java type asked for.
            assertEquals(List.of(LocalDate.of(1815, 12, 10), LocalDate.of(1906, 12, 9)),
                    handle.createQuery("SELECT born FROM person ORDER BY id").mapTo(LocalDate.class).list());
            assertEquals(tag, handle.createQuery("SELECT tag FROM person WHERE id = 1").mapTo(UUID.class).one());
            Map<String, Object> first = handle.createQuery("SELECT id, name FROM person WHERE id = :id")
                    .bind("id", 1L).mapToMap().one();
            assertEquals(Map.of("id", 1L, "name", "Ada"), first);

            // JDBC escapes, which tools generate: a function, a date and a timestamp literal.
            assertEquals("ADA", handle.createQuery("SELECT {fn UCASE(name)} FROM person WHERE born = {d '1815-12-10'}"
                    + " AND seen < {ts '2024-05-02 00:00:00'}").mapTo(String.class).one());

            List<String> tables = handle.queryMetadata(meta -> meta.getTables(null, null, "person", new String[] {"TABLE"}))
                    .map((rows, context) -> rows.getString("TABLE_NAME") + "|" + rows.getString("TABLE_TYPE")).list();
            assertEquals(List.of("person|TABLE"), tables);
            List<String> autoIncrement = handle.queryMetadata(meta -> meta.getColumns(null, null, "person", "%"))
                    .map((rows, context) -> rows.getString("COLUMN_NAME") + "|" + rows.getString("IS_AUTOINCREMENT"))
                    .list();
            assertEquals(List.of("id|YES", "name|NO", "born|NO", "seen|NO", "balance|NO", "tag|NO"), autoIncrement);
            List<String> systemViews = handle.queryMetadata(meta -> meta.getTables(null, "sys", "%",
                    new String[] {"SYSTEM VIEW"})).map((rows, context) -> rows.getString("TABLE_NAME")).list();
            assertTrue(systemViews.contains("tables") && systemViews.contains("columns"), systemViews.toString());
        });
    }

    private static long insert(org.jdbi.v3.core.Handle handle, String name, LocalDate born, LocalDateTime seen,
                               BigDecimal balance, UUID tag) {
        return handle.createUpdate("INSERT INTO person (name, born, seen, balance, tag)"
                        + " VALUES (:name, :born, :seen, :balance, :tag)")
                .bind("name", name).bind("born", born).bind("seen", seen).bind("balance", balance).bind("tag", tag)
                .executeAndReturnGeneratedKeys("id").mapTo(Long.class).one();
    }
}

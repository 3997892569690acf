package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Probe. */
class ColumnstoreEstimatesTest {
    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        session.execute("CREATE TABLE fact (id INT NOT NULL, grp VARCHAR(10), v BIGINT, maybe INT, d DATE)"
                + " WITH (storage = columnstore, rowgroup_max_rows = 10000, bulk_min_rows = 1000)");
        update(session, "INSERT INTO fact SELECT generate_series, 'g' || CAST(MOD(generate_series, 20) AS VARCHAR(3)),"
                + " MOD(CAST(generate_series AS BIGINT) * 7919, 1000),"
                + " CASE WHEN MOD(generate_series, 10) = 0 THEN NULL ELSE generate_series END,"
                + " DATE '2020-01-01' + generate_series / 100 * INTERVAL '1' DAY"
                + " FROM generate_series(1, 50000)");
        session.execute("CREATE TABLE dim (id INT PRIMARY KEY, name VARCHAR(20))");
        update(session, "INSERT INTO dim SELECT generate_series, 'n' || CAST(generate_series AS VARCHAR(10)) FROM generate_series(1, 50000)");
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private String explain(String sql) {
        return query(session, "EXPLAIN " + sql).stream().map(row -> String.valueOf(row.getFirst()))
                .collect(Collectors.joining("\n"));
    }

    @Test
    void probe() {
        for (String where : List.of("id < 12345", "id BETWEEN 20000 AND 20999", "id = 777", "v = 5", "grp = 'g3'",
                "grp IN ('g1', 'g2')", "maybe IS NULL", "id > 40000 AND v < 100", "d < DATE '2020-02-01'", "v <> 5")) {
            long actual = (Long) query(session, "SELECT COUNT(*) FROM fact WHERE " + where).getFirst().getFirst();
            System.out.println(where + " actual " + actual + "\n" + explain("SELECT * FROM fact WHERE " + where));
        }
        System.out.println(explain("SELECT f.id, d.name FROM fact f JOIN dim d ON f.id = d.id WHERE f.v = 5"));
        System.out.println(explain("SELECT f.id, d.name FROM fact f JOIN dim d ON f.id = d.id WHERE f.v < 900"));
        System.out.println(explain("SELECT f.id, d.name FROM fact f JOIN dim d ON f.id = d.id WHERE f.v + 0 = 5"));
    }
}

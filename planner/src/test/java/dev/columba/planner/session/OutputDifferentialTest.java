package dev.columba.planner.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.columba.core.error.ColumbaException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Columba's OUTPUT and RETURNING against H2's data change delta tables on random INSERT, UPDATE
 * and DELETE statements with random expressions over the changed rows (NULLs, CASE, COALESCE,
 * arithmetic, concatenation): Columba's {@code ... OUTPUT inserted.e} (or {@code RETURNING e})
 * against H2's {@code SELECT e FROM FINAL TABLE (...)}, and {@code OUTPUT deleted.e} against
 * {@code SELECT e FROM OLD TABLE (...)}. Each statement must succeed in both or fail in both (a
 * duplicate key, the CHECK constraint, a NOT NULL column), return the same rows (as multisets:
 * neither engine orders changed rows) and leave the same table. H2 gives one image per
 * statement, so an UPDATE is compared on its new rows or its old ones, at random. Replay with
 * {@code -Dcolumba.seed=<seed>}; {@code -Dcolumba.output.statements=<n>} runs more statements per
 * storage kind than CI's default.
 */
class OutputDifferentialTest {
    private static final int STATEMENTS = Integer.getInteger("columba.output.statements", 150);

    /** Expressions over the row's columns id, v, w; {@code %s.} is replaced by the row's qualifier. */
    private static final List<String> EXPRESSIONS = List.of("%sid", "%sv", "%sw", "%sv + 1", "%sid * 2 - %sv",
            "COALESCE(%sv, -1)", "CASE WHEN %sv IS NULL THEN 'none' WHEN %sv > 20 THEN 'big' ELSE %sw END",
            "%sw || 'x'", "NULLIF(%sv, 10)", "CAST(NULL AS INT)", "%sid + 0.5");

    @TempDir
    Path directory;

    @ParameterizedTest
    @ValueSource(strings = {"heap", "clustered", "columnstore"})
    void columbaAndH2AgreeOnEveryChangedRow(String kind) throws SQLException {
        long seed = Long.getLong("columba.seed", System.nanoTime());
        System.out.println("OutputDifferentialTest " + kind + " seed " + seed + " (replay with -Dcolumba.seed=" + seed + ")");
        Random random = new Random(seed);
        String table = "(id INT NOT NULL" + (kind.equals("clustered") ? " PRIMARY KEY" : "")
                + ", v INT, w VARCHAR(4) NOT NULL, CONSTRAINT v_small CHECK (v < 60))";
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession();
             Connection h2 = DriverManager.getConnection("jdbc:h2:mem:output" + kind + seed);
             Statement h2Statement = h2.createStatement()) {
            session.execute("CREATE TABLE t " + table + (kind.equals("columnstore") ? " WITH (storage = columnstore)" : ""));
            h2Statement.execute("CREATE TABLE t " + table);
            // H2 keeps the rows a failed SELECT ... FROM FINAL TABLE (INSERT ...) inserted before the
            // failing one in autocommit mode: each statement runs in a transaction of its own instead.
            h2.setAutoCommit(false);
            for (int index = 0; index < STATEMENTS; index++) {
                Change change = change(random);
                List<List<Object>> columba;
                String columbaError = null;
                try {
                    columba = sorted(SessionRows.query(session, change.columba()));
                } catch (ColumbaException e) {
                    columba = null;
                    columbaError = e.getMessage();
                }
                List<List<Object>> expected;
                String h2Error = null;
                try (ResultSet rows = h2Statement.executeQuery(change.h2())) {
                    expected = sorted(rows(rows));
                    h2.commit();
                } catch (SQLException e) {
                    expected = null;
                    h2Error = e.getMessage();
                    h2.rollback();
                }
                String context = "seed " + seed + ", statement " + index + ": " + change.columba() + " / H2: " + change.h2();
                assertEquals(h2Error == null, columbaError == null, context + "; Columba: " + columbaError + "; H2: " + h2Error);
                assertEquals(expected, columba, context);
                assertEquals(sorted(rows(h2Statement.executeQuery("SELECT id, v, w FROM t"))),
                        sorted(SessionRows.query(session, "SELECT id, v, w FROM t")), context);
            }
        }
    }

    /** One statement as Columba and H2 write it. */
    private record Change(String columba, String h2) {
    }

    private static Change change(Random random) {
        List<String> expressions = new ArrayList<>();
        int count = 1 + random.nextInt(3);
        for (int index = 0; index < count; index++) {
            expressions.add(EXPRESSIONS.get(random.nextInt(EXPRESSIONS.size())));
        }
        boolean returning = random.nextBoolean();
        return switch (random.nextInt(4)) {
            case 0, 1 -> {
                StringBuilder values = new StringBuilder();
                int rows = 1 + random.nextInt(3);
                for (int row = 0; row < rows; row++) {
                    values.append(row == 0 ? "" : ", ").append("(").append(random.nextInt(30)).append(", ")
                            .append(random.nextInt(8) == 0 ? "NULL" : String.valueOf(random.nextInt(70) - 5)).append(", ")
                            .append(random.nextInt(10) == 0 ? "NULL" : "'w" + random.nextInt(10) + "'").append(")");
                }
                String insert = "INSERT INTO t (id, v, w) ";
                yield returning
                        ? new Change(insert + "VALUES " + values + " RETURNING " + items(expressions, ""),
                                h2(expressions, "FINAL", insert + "VALUES " + values))
                        : new Change(insert + "OUTPUT " + items(expressions, "inserted.") + " VALUES " + values,
                                h2(expressions, "FINAL", insert + "VALUES " + values));
            }
            case 2 -> {
                String set = switch (random.nextInt(4)) {
                    case 0 -> "v = v + " + random.nextInt(20);
                    case 1 -> "w = 'u" + random.nextInt(10) + "'";
                    case 2 -> "v = NULL, w = w || 'y'";
                    default -> "v = CASE WHEN v IS NULL THEN 1 ELSE v * 2 END";
                };
                String where = condition(random);
                boolean newRows = random.nextBoolean();
                String update = "UPDATE t SET " + set;
                String qualifier = newRows ? "inserted." : "deleted.";
                yield new Change(update + " OUTPUT " + items(expressions, qualifier) + where,
                        h2(expressions, newRows ? "FINAL" : "OLD", update + where));
            }
            default -> {
                String where = condition(random);
                yield returning
                        ? new Change("DELETE FROM t" + where + " RETURNING " + items(expressions, ""),
                                h2(expressions, "OLD", "DELETE FROM t" + where))
                        : new Change("DELETE FROM t OUTPUT " + items(expressions, "deleted.") + where,
                                h2(expressions, "OLD", "DELETE FROM t" + where));
            }
        };
    }

    private static String condition(Random random) {
        return switch (random.nextInt(5)) {
            case 0 -> "";
            case 1 -> " WHERE id < " + random.nextInt(30);
            case 2 -> " WHERE v IS NULL";
            case 3 -> " WHERE v > " + random.nextInt(50);
            default -> " WHERE id = " + random.nextInt(30);
        };
    }

    private static String items(List<String> expressions, String qualifier) {
        List<String> items = new ArrayList<>();
        for (String expression : expressions) {
            items.add(expression.replace("%s", qualifier));
        }
        return String.join(", ", items);
    }

    private static String h2(List<String> expressions, String delta, String change) {
        return "SELECT " + items(expressions, "") + " FROM " + delta + " TABLE (" + change + ")";
    }

    private static List<List<Object>> rows(ResultSet rows) throws SQLException {
        List<List<Object>> result = new ArrayList<>();
        int columns = rows.getMetaData().getColumnCount();
        while (rows.next()) {
            List<Object> row = new ArrayList<>();
            for (int column = 1; column <= columns; column++) {
                row.add(normalized(rows.getObject(column)));
            }
            result.add(row);
        }
        return result;
    }

    /** Numbers compared by value (the engines may type an expression INT, BIGINT or DECIMAL). */
    private static Object normalized(Object value) {
        return value instanceof Number number ? new java.math.BigDecimal(number.toString()).stripTrailingZeros() : value;
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>();
        for (List<Object> row : rows) {
            List<Object> normalized = new ArrayList<>();
            for (Object value : row) {
                normalized.add(normalized(value));
            }
            copy.add(normalized);
        }
        copy.sort(Comparator.comparing(Object::toString));
        return copy;
    }
}

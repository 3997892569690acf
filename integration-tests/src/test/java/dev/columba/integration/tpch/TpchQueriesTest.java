package dev.columba.integration.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.datagen.ResultComparison;
import dev.columba.integration.tpch.TpchFixture.Storage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 22 TPC-H queries in two texts each, on Columba's rowstore and columnstore copies of the data,
 * each answer checked against DuckDB's on the same rows ({@link ResultComparison}):
 *
 * <ul>
 *   <li>{@link Texts#SPECIFICATION} (src/test/resources/tpch/qNN.sql): the specification's text
 *       (INTERVAL arithmetic, {@code date '...'} literals) with its validation parameters, and other
 *       valid parameters where the validation ones select nothing at this scale factor, as each file
 *       says. A reference answer that is empty or all NULL in a column fails the test: agreeing on
 *       nothing proves nothing.</li>
 *   <li>{@link Texts#DUCKDB_VERBATIM} (tpch/duckdb/qNN.sql, the bench module's copy of DuckDB's tpch
 *       extension texts): byte for byte as DuckDB ships them, validation parameters included. At this
 *       scale factor Q8's shares are all 0 and Q17's answer is NULL; the comparison still runs, and
 *       the specification texts cover those two queries with parameters that select rows.</li>
 * </ul>
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpchQueriesTest {
    /** Small enough for seconds per query on two cores; lineitem has 60,175 rows. */
    private static final double SCALE_FACTOR = 0.01;

    /** The output columns of each query's ORDER BY, outermost first. */
    private static final Map<Integer, int[]> SORT_COLUMNS = Map.ofEntries(
            Map.entry(1, new int[] {0, 1}),
            Map.entry(2, new int[] {0, 2, 1, 3}),
            Map.entry(3, new int[] {1, 2}),
            Map.entry(4, new int[] {0}),
            Map.entry(5, new int[] {1}),
            Map.entry(6, new int[] {}),
            Map.entry(7, new int[] {0, 1, 2}),
            Map.entry(8, new int[] {0}),
            Map.entry(9, new int[] {0, 1}),
            Map.entry(10, new int[] {2}),
            Map.entry(11, new int[] {1}),
            Map.entry(12, new int[] {0}),
            Map.entry(13, new int[] {1, 0}),
            Map.entry(14, new int[] {}),
            Map.entry(15, new int[] {0}),
            Map.entry(16, new int[] {3, 0, 1, 2}),
            Map.entry(17, new int[] {}),
            Map.entry(18, new int[] {4, 3}),
            Map.entry(19, new int[] {}),
            Map.entry(20, new int[] {0}),
            Map.entry(21, new int[] {1, 0}),
            Map.entry(22, new int[] {0}));

    /** The two sets of texts, each a class-path directory of q01.sql ... q22.sql. */
    enum Texts {
        SPECIFICATION("/tpch/"),
        DUCKDB_VERBATIM("/tpch/duckdb/");

        private final String directory;

        Texts(String directory) {
            this.directory = directory;
        }

        String text(int query) throws IOException {
            String name = String.format("%sq%02d.sql", directory, query);
            try (InputStream in = TpchQueriesTest.class.getResourceAsStream(name)) {
                assertEquals(true, in != null, name + " is missing");
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        }
    }

    private TpchFixture fixture;
    private final Map<String, List<List<Object>>> expected = new HashMap<>();

    @BeforeAll
    void load(@TempDir Path directory) throws IOException, SQLException {
        fixture = TpchFixture.load(directory, SCALE_FACTOR);
    }

    @AfterAll
    void close() throws SQLException {
        if (fixture != null) {
            fixture.close();
        }
    }

    /** Both sets of texts on both storage kinds. */
    static Stream<Arguments> queries() {
        return Stream.of(Texts.values()).flatMap(texts -> IntStream.rangeClosed(1, 22).boxed()
                .flatMap(query -> Stream.of(Storage.values()).map(storage -> Arguments.of(texts, query, storage))));
    }

    static Stream<Integer> queryNumbers() {
        return IntStream.rangeClosed(1, 22).boxed();
    }

    /**
     * The same answers with parallel plans: every fragment that can run in parallel does, on
     * {@link TpchFixture#PARALLEL_DEGREE} workers dividing the columnstore's rowgroups.
     */
    @ParameterizedTest(name = "Q{0} on COLUMNSTORE, parallel")
    @MethodSource("queryNumbers")
    void answersAsDuckDbInParallel(int query) throws IOException, SQLException {
        String sql = Texts.SPECIFICATION.text(query);
        List<List<Object>> reference = reference(Texts.SPECIFICATION, query, sql);
        String plan = fixture.explainParallel(Storage.COLUMNSTORE, sql);
        assertTrue(plan.contains("Parallelism"), () -> "Q" + query + " has no parallel fragment:\n" + plan);
        List<List<Object>> actual = fixture.columbaParallel(Storage.COLUMNSTORE, sql);
        String difference = ResultComparison.difference(reference, actual, SORT_COLUMNS.get(query));
        assertNull(difference, () -> "Q" + query + " on COLUMNSTORE in parallel: " + difference + "\nplan:\n" + plan);
    }

    @ParameterizedTest(name = "{0} Q{1} on {2}")
    @MethodSource("queries")
    void answersAsDuckDb(Texts texts, int query, Storage storage) throws IOException, SQLException {
        String sql = texts.text(query);
        List<List<Object>> reference = reference(texts, query, sql);
        if (texts == Texts.SPECIFICATION) {
            assertFalse(reference.isEmpty(), "Q" + query + " has no rows on DuckDB: the data or the parameters are wrong");
            for (int column = 0; column < reference.getFirst().size(); column++) {
                int index = column;
                assertFalse(reference.stream().allMatch(row -> row.get(index) == null),
                        "Q" + query + " column " + (column + 1) + " is NULL in every row on DuckDB: the parameters select nothing");
            }
        }
        long start = System.nanoTime();
        List<List<Object>> actual = fixture.columba(storage, sql);
        System.out.printf("%s Q%d on %s: %d rows in %d ms%n", texts, query, storage, actual.size(),
                (System.nanoTime() - start) / 1_000_000);
        String difference = ResultComparison.difference(reference, actual, SORT_COLUMNS.get(query));
        assertNull(difference, () -> texts + " Q" + query + " on " + storage + ": " + difference + "\nplan:\n"
                + fixture.explain(storage, sql));
    }

    private List<List<Object>> reference(Texts texts, int query, String sql) throws SQLException {
        String key = texts + " Q" + query;
        List<List<Object>> rows = expected.get(key);
        if (rows == null) {
            rows = fixture.duckdb(DuckDbDialect.translate(sql));
            expected.put(key, rows);
        }
        return rows;
    }
}

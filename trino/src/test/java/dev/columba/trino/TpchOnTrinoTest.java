package dev.columba.trino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static dev.columba.trino.TrinoQueries.cluster;
import static dev.columba.trino.TrinoQueries.rows;
import static dev.columba.trino.TrinoQueries.scanNodes;
import static dev.columba.trino.TrinoQueries.tableScan;

import dev.columba.datagen.ResultComparison;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoStats;
import dev.columba.datagen.RowCursor;
import dev.columba.datagen.TpchGenerator;
import dev.columba.jdbc.ColumbaStatement;
import io.trino.Session;
import io.trino.execution.QueryInfo;
import io.trino.execution.StageInfo;
import io.trino.execution.StagesInfo;
import io.trino.execution.TaskInfo;
import io.trino.operator.OperatorStats;
import io.trino.spi.QueryId;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * TPC-H at SF 0.01 in Columba columnstore tables, read by a Trino cluster in this JVM (a coordinator
 * that schedules no splits and four workers, talking HTTP), against the same queries through
 * Columba's own driver.
 *
 * <p>The driver loads the database and answers every query first, then lets the database go (a
 * database is open in one place per process); the cluster then opens it through the connector. The
 * query texts are integration-tests' (the specification's, with its validation parameters), which
 * Trino parses as they are.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpchOnTrinoTest {
    private static final double SCALE_FACTOR = 0.01;
    /** Rows per rowgroup: lineitem's 60,175 rows make 8 rowgroups, so that splits spread over the workers. */
    private static final int ROWGROUP_ROWS = 8192;
    private static final int WORKERS = 4;

    /** The output columns of each query's ORDER BY, outermost first (as integration-tests' TpchQueriesTest). */
    private static final Map<Integer, int[]> SORT_COLUMNS = Map.ofEntries(
            Map.entry(1, new int[] {0, 1}), Map.entry(2, new int[] {0, 2, 1, 3}), Map.entry(3, new int[] {1, 2}),
            Map.entry(4, new int[] {0}), Map.entry(5, new int[] {1}), Map.entry(6, new int[] {}),
            Map.entry(7, new int[] {0, 1, 2}), Map.entry(8, new int[] {0}), Map.entry(9, new int[] {0, 1}),
            Map.entry(10, new int[] {2}), Map.entry(11, new int[] {1}), Map.entry(12, new int[] {0}),
            Map.entry(13, new int[] {1, 0}), Map.entry(14, new int[] {}), Map.entry(15, new int[] {0}),
            Map.entry(16, new int[] {3, 0, 1, 2}), Map.entry(17, new int[] {}), Map.entry(18, new int[] {4, 3}),
            Map.entry(19, new int[] {}), Map.entry(20, new int[] {0}), Map.entry(21, new int[] {1, 0}),
            Map.entry(22, new int[] {0}));

    /** Every Columba type, NULLs in every nullable column, compressed rowgroups and a delta rowgroup. */
    private static final String TYPES_TABLE = """
            CREATE TABLE all_types (id BIGINT NOT NULL, flag BOOLEAN, small INT, big BIGINT, ratio DOUBLE,
              price DECIMAL(12,2), wide DECIMAL(30,4), name VARCHAR(25), code CHAR(4), day DATE, moment TIMESTAMP)
            WITH (storage = columnstore, rowgroup_max_rows = 2048, bulk_min_rows = 1024)""";
    private static final String TYPES_ROWS = """
            INSERT INTO all_types
            SELECT l_orderkey * 8 + l_linenumber,
              CASE WHEN l_linenumber = 3 THEN NULL ELSE l_returnflag = 'R' END,
              CASE WHEN l_linenumber = 4 THEN NULL ELSE l_partkey END,
              CASE WHEN l_linenumber = 5 THEN NULL ELSE l_orderkey * 1000003 END,
              CASE WHEN l_linenumber = 6 THEN NULL ELSE CAST(l_extendedprice AS DOUBLE) / 7 END,
              CASE WHEN l_linenumber = 2 THEN NULL ELSE l_extendedprice END,
              CASE WHEN l_linenumber = 3 THEN NULL ELSE CAST(l_extendedprice * l_quantity * 1000000000000 AS DECIMAL(30,4)) END,
              CASE WHEN l_linenumber = 4 THEN NULL ELSE l_shipmode END,
              CASE WHEN l_linenumber = 5 THEN NULL ELSE CAST(l_returnflag AS CHAR(4)) END,
              CASE WHEN l_linenumber = 6 THEN NULL ELSE l_shipdate END,
              CASE WHEN l_linenumber = 7 THEN NULL ELSE CAST(l_commitdate AS TIMESTAMP) END
            FROM lineitem WHERE l_orderkey < 2000""";
    private static final List<String> TYPES_DELTA_ROWS = List.of(
            "INSERT INTO all_types VALUES (-1, true, -2147483648, -9223372036854775807, -0.5, -9999999999.99, "
                    + "-12345678901234567890123456.7891, 'ünïcode ✓', 'ab', DATE '1969-12-31', TIMESTAMP '1969-12-31 23:59:59.999999')",
            "INSERT INTO all_types VALUES (-2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)");

    private static final String TYPES_QUERY =
            "SELECT id, flag, small, big, ratio, price, wide, name, code, day, moment FROM all_types ORDER BY id";
    private static final String RANGE_QUERY =
            "SELECT count(*), sum(l_extendedprice) FROM lineitem WHERE l_orderkey BETWEEN 1000 AND 5000";

    private static final String KEY_RANGE_QUERY = "SELECT min(l_orderkey), max(l_orderkey) FROM lineitem";
    private static final String DISTINCT_QUERY =
            "SELECT count(DISTINCT l_orderkey), count(DISTINCT l_returnflag), count(DISTINCT l_shipdate) FROM lineitem";

    /** Q6 over the copy of lineitem in ship-date order. */
    private static final String Q6_BY_SHIPDATE = queryText(6).replace("lineitem", "lineitem_by_shipdate");
    /** A scan of two columns of every row, which Columba and the connector read the same segments for. */
    private static final String TWO_COLUMN_SCAN = "SELECT l_quantity, l_extendedprice FROM lineitem";
    /**
     * A join whose build side holds a narrow range of lineitem's keys and nothing Trino could carry
     * over the join as a constraint: only the dynamic filter can narrow lineitem's scan.
     */
    private static final String DYNAMIC_FILTER_JOIN = "SELECT count(*), sum(l_quantity) FROM lineitem JOIN wanted_orders"
            + " ON l_orderkey = wanted_key";

    private Path database;
    /** Segment pages (8 KB) Columba's STATISTICS IO counts for {@link #TWO_COLUMN_SCAN} (its lob logical reads). */
    private long columbaScanPages;
    private final Map<String, List<List<Object>>> columbaAnswers = new HashMap<>();
    /** Rowgroups (any state) of each table, by name, as Columba's rowgroup view lists them. */
    private final Map<String, Long> rowgroups = new HashMap<>();
    /** The states of each table's rowgroups (COMPRESSED, OPEN, ...). */
    private final Map<String, Set<String>> rowgroupStates = new HashMap<>();
    private DistributedQueryRunner trino;

    @BeforeAll
    void loadAndStart(@TempDir Path directory) throws Exception {
        database = directory.resolve("tpch");
        try (Connection connection = DriverManager.getConnection("jdbc:columba:" + database);
             Statement statement = connection.createStatement()) {
            for (TpchGenerator generator : TpchGenerator.all(SCALE_FACTOR)) {
                Path csv = directory.resolve(generator.tableName() + ".csv");
                writeCsv(generator, csv);
                statement.execute("CREATE TABLE " + generator.tableName() + " (" + columns(generator.schema())
                        + ") WITH (storage = columnstore, rowgroup_max_rows = " + ROWGROUP_ROWS + ", bulk_min_rows = 1024)");
                assertEquals(generator.rowCount(), statement.executeUpdate("COPY " + generator.tableName() + " FROM '" + csv + "'"),
                        generator.tableName());
            }
            // lineitem again, in ship-date order: its rowgroups' date ranges then separate, as a table
            // loaded by date does, and Q6's one-year range can eliminate rowgroups.
            TpchGenerator lineitem = TpchGenerator.all(SCALE_FACTOR).stream()
                    .filter(generator -> generator.tableName().equals("lineitem")).findFirst().orElseThrow();
            Path byShipDate = directory.resolve("lineitem_by_shipdate.csv");
            writeCsv(sortedRows(lineitem, "l_shipdate"), byShipDate);
            statement.execute("CREATE TABLE lineitem_by_shipdate (" + columns(lineitem.schema())
                    + ") WITH (storage = columnstore, rowgroup_max_rows = " + ROWGROUP_ROWS + ", bulk_min_rows = 1024)");
            assertEquals(lineitem.rowCount(), statement.executeUpdate("COPY lineitem_by_shipdate FROM '" + byShipDate + "'"));
            columbaAnswers.put(Q6_BY_SHIPDATE, rows(statement, Q6_BY_SHIPDATE));
            statement.execute("CREATE TABLE wanted_orders (wanted_key BIGINT NOT NULL) WITH (storage = columnstore)");
            statement.executeUpdate("INSERT INTO wanted_orders SELECT o_orderkey FROM orders WHERE o_orderkey BETWEEN 10000 AND 15000");
            statement.execute("SET STATISTICS IO ON");
            rows(statement, TWO_COLUMN_SCAN);
            IoStats scan = statement.unwrap(ColumbaStatement.class).statistics().tables().get("lineitem");
            // Segment pages: a split reads those and nothing else (the rowgroup directory, which the
            // statement also reads, is read on the coordinator when the splits are made).
            columbaScanPages = scan.lobLogicalReads();
            statement.execute("SET STATISTICS IO OFF");
            statement.execute(TYPES_TABLE);
            statement.executeUpdate(TYPES_ROWS);
            for (String insert : TYPES_DELTA_ROWS) {
                statement.executeUpdate(insert);
            }
            for (int query = 1; query <= 22; query++) {
                columbaAnswers.put(queryName(query), rows(statement, queryText(query)));
            }
            for (String extra : extraQueries()) {
                columbaAnswers.put(extra, rows(statement, extra));
            }
            for (List<Object> row : rows(statement,
                    "SELECT table_name, state, count(*) FROM sys.column_store_row_groups GROUP BY table_name, state")) {
                String table = ((String) row.get(0)).toLowerCase(java.util.Locale.ROOT);
                rowgroups.merge(table, ((Number) row.get(2)).longValue(), Long::sum);
                rowgroupStates.computeIfAbsent(table, ignored -> new HashSet<>()).add((String) row.get(1));
            }
        }
        // A generous wait for dynamic filters: the test's point is that they eliminate, on a busy machine too.
        trino = cluster(WORKERS, "tpch", Map.of(ColumbaConfig.DATABASE_DIRECTORY, database.toString(),
                ColumbaConfig.DYNAMIC_FILTER_WAIT_TIMEOUT, "30s"));
    }

    @AfterAll
    void stop() {
        if (trino != null) {
            trino.close();
        }
    }

    static IntStream queries() {
        return IntStream.rangeClosed(1, 22);
    }

    @ParameterizedTest(name = "Q{0}")
    @MethodSource("queries")
    void tpchQueryAgreesWithColumba(int query) {
        List<List<Object>> expected = columbaAnswers.get(queryName(query));
        assertFalse(expected.isEmpty(), "Columba's answer to " + queryName(query) + " is empty: agreeing on nothing proves nothing");
        List<List<Object>> actual = trino(queryText(query));
        assertNull(ResultComparison.difference(expected, actual, SORT_COLUMNS.get(query)), queryName(query));
    }

    /** Each column type, NULLs, a long decimal, CHAR padding and the delta rowgroup's rows, value for value. */
    @Test
    void everyTypeReadsAsColumbaReadsIt() {
        List<List<Object>> expected = columbaAnswers.get(TYPES_QUERY);
        assertTrue(expected.size() > 1000, expected.size() + " rows");
        assertNull(ResultComparison.difference(expected, trino(TYPES_QUERY), new int[] {0}), TYPES_QUERY);
        assertTrue(rowgroupStates.get("all_types").contains("COMPRESSED") && rowgroupStates.get("all_types").contains("OPEN"),
                "all_types has compressed rowgroups and a delta rowgroup: " + rowgroupStates.get("all_types"));
    }

    /** A full scan: one split per rowgroup, each read once, spread over the four workers and not the coordinator. */
    @Test
    void fullScanSplitsOneRowgroupEachOverEveryWorker() {
        QueryRunner.MaterializedResultWithPlan result = trino.executeWithPlan(trino.getDefaultSession(),
                "SELECT count(*), sum(l_quantity) FROM lineitem");
        assertEquals(60_175L, result.result().getMaterializedRows().getFirst().getField(0));
        QueryInfo info = trino.getCoordinator().getQueryManager().getFullQueryInfo(result.queryId());
        OperatorStats scan = tableScan(info);
        assertEquals(rowgroups.get("lineitem"), scan.getTotalDrivers(), "splits of lineitem = its rowgroups");
        assertEquals(60_175L, scan.getPhysicalInputPositions());
        assertTrue(scan.getPhysicalInputDataSize().toBytes() > 0, "the page sources report the bytes they read");
        Set<String> nodes = scanNodes(info);
        assertEquals(WORKERS, nodes.size(), "scan tasks ran on " + nodes);
        assertFalse(nodes.contains(trino.getCoordinator().getCurrentNode().getNodeIdentifier()),
                "the coordinator scheduled no split");
    }

    /**
     * A LIMIT right above the scan is pushed down: the splits stop at the rowgroup whose live rows
     * reach it (lineitem's first of eight), each split stops after the limit's rows, and Trino's own
     * limit stays above (not guaranteed). A limit under a filter is not the scan's: every rowgroup is
     * read and the rows are those the filter keeps.
     */
    @Test
    void limitStopsTheScanAtTheRowgroupsItNeeds() {
        QueryRunner.MaterializedResultWithPlan limited = trino.executeWithPlan(trino.getDefaultSession(),
                "SELECT l_orderkey, l_quantity FROM lineitem LIMIT 100");
        assertEquals(100, limited.result().getRowCount());
        OperatorStats scan = tableScan(trino.getCoordinator().getQueryManager().getFullQueryInfo(limited.queryId()));
        assertEquals(1, scan.getTotalDrivers(), "one split: the first rowgroup holds 8,192 rows, more than 100");
        assertTrue(scan.getPhysicalInputPositions() <= 100, scan.getPhysicalInputPositions() + " rows read");
        // 10,000 rows: two rowgroups of 8,192, and exactly the limit's rows from their scans.
        QueryRunner.MaterializedResultWithPlan two = trino.executeWithPlan(trino.getDefaultSession(),
                "SELECT l_orderkey FROM lineitem LIMIT 10000");
        assertEquals(10_000, two.result().getRowCount());
        OperatorStats twoScan = tableScan(trino.getCoordinator().getQueryManager().getFullQueryInfo(two.queryId()));
        assertEquals(2, twoScan.getTotalDrivers(), "two rowgroups hold the 10,000 rows");
        assertTrue(twoScan.getPhysicalInputPositions() <= 2 * 10_000L, twoScan.getPhysicalInputPositions() + " rows read");
        // A filter keeps the rows of the last orders only: the limit cannot stop the scan early.
        List<List<Object>> filtered = trino("SELECT l_orderkey FROM lineitem WHERE l_orderkey > 59000 LIMIT 5");
        assertEquals(5, filtered.size());
        for (List<Object> row : filtered) {
            assertTrue(((Number) row.getFirst()).longValue() > 59000, "row " + row);
        }
        assertEquals(0L, trino("SELECT count(*) FROM (SELECT * FROM lineitem LIMIT 0)").getFirst().getFirst());
    }

    /**
     * lineitem is loaded in l_orderkey order, so a range of keys lies in few rowgroups: the others are
     * eliminated on the coordinator by their min/max and get no split, and the answer stays Columba's.
     */
    @Test
    void pushedDownRangeEliminatesRowgroups() {
        String sql = RANGE_QUERY;
        QueryRunner.MaterializedResultWithPlan result = trino.executeWithPlan(trino.getDefaultSession(), sql);
        QueryInfo info = trino.getCoordinator().getQueryManager().getFullQueryInfo(result.queryId());
        OperatorStats scan = tableScan(info);
        assertTrue(scan.getTotalDrivers() >= 1 && scan.getTotalDrivers() < rowgroups.get("lineitem"),
                scan.getTotalDrivers() + " splits of " + rowgroups.get("lineitem") + " rowgroups");
        assertTrue(scan.getPhysicalInputPositions() < 60_175L / 2, scan.getPhysicalInputPositions() + " rows read");
        List<List<Object>> actual = rows(result.result().getMaterializedRows());
        assertNull(ResultComparison.difference(columbaAnswers.get(sql), actual, new int[0]), sql);
        String plan = (String) trino.execute("EXPLAIN " + sql).getOnlyValue();
        assertTrue(plan.contains("l_orderkey") && plan.contains("constraint"), plan);
    }

    /** Trino's estimates come from the rowgroups: the row count, and a column's range and NULL fraction from the footers. */
    @Test
    void statisticsComeFromTheRowgroups() {
        List<List<Object>> statistics = trino("SHOW STATS FOR lineitem");
        List<Object> summary = statistics.stream().filter(row -> row.get(0) == null).findFirst().orElseThrow();
        assertEquals(60_175.0, summary.get(4), "row count in " + summary);
        List<Object> orderKey = statistics.stream().filter(row -> "l_orderkey".equals(row.get(0))).findFirst().orElseThrow();
        List<Object> keyRange = columbaAnswers.get(KEY_RANGE_QUERY).getFirst();
        assertEquals(0.0, orderKey.get(3), "NULL fraction in " + orderKey);
        assertEquals(String.valueOf(keyRange.get(0)), orderKey.get(5), "low value in " + orderKey);
        assertEquals(String.valueOf(keyRange.get(1)), orderKey.get(6), "high value in " + orderKey);

        // Distinct values, estimated from the footers as Columba's planner does (SegmentDistinct): the order
        // keys are loaded in order (a rowgroup has as many as its runs; an order split by a rowgroup boundary
        // counts twice), the flags are the dictionaries' entries, the ship dates the span of days.
        List<Object> actual = columbaAnswers.get(DISTINCT_QUERY).getFirst();
        double orderKeys = ((Number) actual.get(0)).doubleValue();
        double orderKeyEstimate = (Double) orderKey.get(2);
        assertTrue(orderKeyEstimate >= orderKeys && orderKeyEstimate <= orderKeys * 1.01,
                orderKeyEstimate + " estimated for " + orderKeys + " order keys");
        List<Object> returnFlag = statistics.stream().filter(row -> "l_returnflag".equals(row.get(0))).findFirst().orElseThrow();
        assertEquals(((Number) actual.get(1)).doubleValue(), returnFlag.get(2), "distinct flags in " + returnFlag);
        List<Object> shipDate = statistics.stream().filter(row -> "l_shipdate".equals(row.get(0))).findFirst().orElseThrow();
        double shipDates = ((Number) actual.get(2)).doubleValue();
        double shipDateEstimate = (Double) shipDate.get(2);
        assertTrue(Math.abs(shipDateEstimate - shipDates) <= 0.05 * shipDates,
                shipDateEstimate + " estimated for " + shipDates + " ship dates");
    }

    /**
     * Q6's one-year ship-date range over lineitem loaded in ship-date order: the rowgroups outside the
     * year get no split, the rows read are well below a full scan, and the answer is Columba's Q6.
     */
    @Test
    void q6ShipDateRangeReadsOnlyOverlappingRowgroups() {
        QueryRunner.MaterializedResultWithPlan result = trino.executeWithPlan(trino.getDefaultSession(), Q6_BY_SHIPDATE);
        QueryInfo info = trino.getCoordinator().getQueryManager().getFullQueryInfo(result.queryId());
        OperatorStats scan = tableScan(info);
        long rowgroupsOfTable = rowgroups.get("lineitem_by_shipdate");
        assertTrue(scan.getTotalDrivers() >= 1 && scan.getTotalDrivers() <= rowgroupsOfTable / 2,
                scan.getTotalDrivers() + " splits of " + rowgroupsOfTable + " rowgroups");
        assertTrue(scan.getPhysicalInputPositions() < 60_175L / 3, scan.getPhysicalInputPositions() + " rows read");
        assertNull(ResultComparison.difference(columbaAnswers.get(Q6_BY_SHIPDATE), rows(result.result().getMaterializedRows()),
                new int[0]), Q6_BY_SHIPDATE);
        assertNull(ResultComparison.difference(columbaAnswers.get(queryName(6)), rows(result.result().getMaterializedRows()),
                new int[0]), "the same answer as Q6 over lineitem");
        String plan = (String) trino.execute("EXPLAIN " + Q6_BY_SHIPDATE).getOnlyValue();
        assertTrue(plan.contains("l_shipdate") && plan.contains("constraint"), plan);
    }

    /**
     * The same join with Trino's dynamic filtering on and off: with it, lineitem's rowgroups outside the
     * build side's key range get no split and fewer rows are read; the answers are the same.
     */
    @Test
    void dynamicFiltersEliminateRowgroupsAndRows() {
        Session withoutFilters = Session.builder(trino.getDefaultSession())
                .setSystemProperty("enable_dynamic_filtering", "false").build();
        QueryRunner.MaterializedResultWithPlan filtered = trino.executeWithPlan(trino.getDefaultSession(), DYNAMIC_FILTER_JOIN);
        QueryRunner.MaterializedResultWithPlan unfiltered = trino.executeWithPlan(withoutFilters, DYNAMIC_FILTER_JOIN);
        QueryInfo with = trino.getCoordinator().getQueryManager().getFullQueryInfo(filtered.queryId());
        QueryInfo without = trino.getCoordinator().getQueryManager().getFullQueryInfo(unfiltered.queryId());

        assertNull(ResultComparison.difference(columbaAnswers.get(DYNAMIC_FILTER_JOIN), rows(filtered.result().getMaterializedRows()),
                new int[0]), "with dynamic filters");
        assertNull(ResultComparison.difference(columbaAnswers.get(DYNAMIC_FILTER_JOIN), rows(unfiltered.result().getMaterializedRows()),
                new int[0]), "without dynamic filters");
        // orders is scanned whole both times; the difference is lineitem's.
        assertTrue(scanSplits(with) < scanSplits(without), scanSplits(with) + " splits with dynamic filters, "
                + scanSplits(without) + " without");
        assertTrue(with.getQueryStats().getPhysicalInputPositions() < without.getQueryStats().getPhysicalInputPositions() / 2,
                with.getQueryStats().getPhysicalInputPositions() + " rows read with dynamic filters, "
                        + without.getQueryStats().getPhysicalInputPositions() + " without");
    }

    /** The bytes the splits report add up to the pages Columba's own STATISTICS IO counts for the same scan. */
    @Test
    void splitBytesAddUpToColumbasCounters() {
        QueryRunner.MaterializedResultWithPlan result = trino.executeWithPlan(trino.getDefaultSession(),
                "SELECT sum(l_quantity), sum(l_extendedprice) FROM lineitem");
        OperatorStats scan = tableScan(trino.getCoordinator().getQueryManager().getFullQueryInfo(result.queryId()));
        assertTrue(columbaScanPages > 0, "Columba counted " + columbaScanPages + " pages");
        assertEquals(columbaScanPages * 8192, scan.getPhysicalInputDataSize().toBytes(),
                "the splits' bytes against Columba's " + columbaScanPages + " pages of 8 KB");
    }

    /** Splits of every table scan of the query. */
    private static long scanSplits(QueryInfo info) {
        return info.getQueryStats().getOperatorSummaries().stream()
                .filter(operator -> operator.getOperatorType().equals("TableScanOperator")
                        || operator.getOperatorType().equals("ScanFilterAndProjectOperator"))
                .mapToLong(OperatorStats::getTotalDrivers).sum();
    }

    private static List<String> extraQueries() {
        return List.of(TYPES_QUERY, RANGE_QUERY, KEY_RANGE_QUERY, DISTINCT_QUERY, DYNAMIC_FILTER_JOIN);
    }

    private List<List<Object>> trino(String sql) {
        return rows(trino.execute(sql).getMaterializedRows());
    }

    private static String queryName(int query) {
        return String.format("q%02d", query);
    }

    private static String queryText(int query) {
        String resource = "/tpch/" + queryName(query) + ".sql";
        try (InputStream in = TpchOnTrinoTest.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no " + resource + " on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String columns(TableSchema schema) {
        StringJoiner columns = new StringJoiner(", ");
        for (Column column : schema.columns()) {
            columns.add(column.name() + " " + column.type().sqlName() + (column.nullable() ? "" : " NOT NULL"));
        }
        return columns.toString();
    }

    /** RFC 4180: every text field quoted (comments hold commas), quotes doubled; no NULLs in TPC-H. */
    private static void writeCsv(TpchGenerator generator, Path file) throws IOException {
        List<Object[]> rows = new ArrayList<>();
        RowCursor cursor = generator.cursor();
        while (cursor.next()) {
            rows.add(cursor.row().clone());
        }
        writeCsv(rows, file);
    }

    /** The generator's rows ordered by one column. */
    private static List<Object[]> sortedRows(TpchGenerator generator, String column) {
        int index = generator.schema().columns().stream().map(Column::name).toList().indexOf(column);
        List<Object[]> rows = new ArrayList<>();
        RowCursor cursor = generator.cursor();
        while (cursor.next()) {
            rows.add(cursor.row().clone());
        }
        @SuppressWarnings("unchecked")
        Comparator<Object[]> byColumn = Comparator.comparing(row -> (Comparable<Object>) row[index]);
        rows.sort(byColumn);
        return rows;
    }

    private static void writeCsv(List<Object[]> rows, Path file) throws IOException {
        try (BufferedWriter writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            StringBuilder line = new StringBuilder();
            for (Object[] row : rows) {
                line.setLength(0);
                for (int columnIndex = 0; columnIndex < row.length; columnIndex++) {
                    if (columnIndex > 0) {
                        line.append(',');
                    }
                    switch (row[columnIndex]) {
                        case String text -> line.append('"').append(text.replace("\"", "\"\"")).append('"');
                        case BigDecimal decimal -> line.append(decimal.toPlainString());
                        case Object value -> line.append(value);
                    }
                }
                writer.append(line).append('\n');
            }
        }
    }
}

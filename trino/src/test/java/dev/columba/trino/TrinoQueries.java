package dev.columba.trino;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.trino.Session;
import io.trino.execution.QueryInfo;
import io.trino.execution.StageInfo;
import io.trino.execution.StagesInfo;
import io.trino.execution.TaskInfo;
import io.trino.operator.OperatorStats;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;
import io.trino.testing.TestingSession;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The connector's cluster tests' harness: the cluster, and what they read off a query (its rows, Trino's or the driver's, and its table scan's figures). */
final class TrinoQueries {
    private TrinoQueries() {
    }

    /**
     * A cluster of a coordinator that schedules no splits and {@code workers} workers, with the
     * connector's catalog {@code columba} (its properties {@code catalog}); the session's schema is {@code schema}.
     */
    static DistributedQueryRunner cluster(int workers, String schema, Map<String, String> catalog) throws Exception {
        Session session = TestingSession.testSessionBuilder().setCatalog("columba").setSchema(schema).build();
        DistributedQueryRunner trino = DistributedQueryRunner.builder(session)
                .setWorkerCount(workers)
                .addCoordinatorProperty("node-scheduler.include-coordinator", "false")
                .build();
        try {
            trino.installPlugin(new ColumbaPlugin());
            trino.createCatalog("columba", "columba", catalog);
        } catch (RuntimeException e) {
            trino.close();
            throw e;
        }
        return trino;
    }

    /** The one table scan of the query (its splits are its drivers). */
    static OperatorStats tableScan(QueryInfo info) {
        List<OperatorStats> scans = info.getQueryStats().getOperatorSummaries().stream()
                .filter(operator -> operator.getOperatorType().equals("TableScanOperator")
                        || operator.getOperatorType().equals("ScanFilterAndProjectOperator")).toList();
        assertEquals(1, scans.size(), "one table scan in " + info.getQueryStats().getOperatorSummaries());
        return scans.getFirst();
    }

    /** The nodes that ran tasks of the stage that reads the table. */
    static Set<String> scanNodes(QueryInfo info) {
        Set<String> nodes = new HashSet<>();
        for (StageInfo stage : StagesInfo.getAllStages(info.getStages())) {
            if (!stage.plan().getPartitionedSources().isEmpty()) {
                for (TaskInfo task : stage.tasks()) {
                    nodes.add(task.taskStatus().nodeId());
                }
            }
        }
        return nodes;
    }

    static List<List<Object>> rows(List<MaterializedRow> materialized) {
        List<List<Object>> rows = new ArrayList<>();
        for (MaterializedRow row : materialized) {
            rows.add(new ArrayList<>(row.getFields()));
        }
        return rows;
    }

    /** The rows of {@code sql} through Columba's driver. */
    static List<List<Object>> rows(Statement statement, String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (ResultSet resultSet = statement.executeQuery(sql)) {
            ResultSetMetaData metaData = resultSet.getMetaData();
            while (resultSet.next()) {
                List<Object> row = new ArrayList<>(metaData.getColumnCount());
                for (int column = 1; column <= metaData.getColumnCount(); column++) {
                    row.add(resultSet.getObject(column));
                }
                rows.add(row);
            }
        }
        return rows;
    }
}

package dev.columba.planner.session;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.schema.TableSchema;
import dev.columba.planner.plan.QueryPlanner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/** Test helpers: an engine with the real planner, and a query's rows as lists of Java values. */
final class SessionRows {
    private SessionRows() {
    }

    static Engine open(Path directory) {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "16MB");
        return Engine.open(directory, properties, (catalog, settings, statement, cancel) ->
                new QueryPlanner(catalog, settings).plan(statement));
    }

    static List<List<Object>> query(Session session, String sql) {
        try (StatementResult.Rows result = (StatementResult.Rows) session.execute(sql)) {
            return rows(result);
        }
    }

    /** A statement with parameters ({@code ?} in {@code sql}), executed as a prepared statement is. */
    static List<List<Object>> queryWith(Session session, String sql, Object... parameters) {
        try (StatementResult.Rows result = (StatementResult.Rows) session.execute(sql, Arrays.asList(parameters))) {
            return rows(result);
        }
    }

    private static List<List<Object>> rows(StatementResult.Rows result) {
        List<List<Object>> rows = new ArrayList<>();
        TableSchema schema = result.schema();
        for (Batch batch = result.next(); batch != null; batch = result.next()) {
            for (int index = 0; index < batch.selectedCount(); index++) {
                int row = batch.selectedRow(index);
                List<Object> values = new ArrayList<>();
                for (int column = 0; column < schema.size(); column++) {
                    values.add(VectorValues.get(batch.column(column), row, schema.column(column).type()));
                }
                rows.add(values);
            }
        }
        return rows;
    }

    static long update(Session session, String sql) {
        return ((StatementResult.Update) session.execute(sql)).count();
    }
}

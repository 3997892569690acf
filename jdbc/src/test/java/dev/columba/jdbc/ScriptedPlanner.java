package dev.columba.jdbc;

import dev.columba.core.batch.Batch;
import dev.columba.core.exec.ExecutionContext;
import dev.columba.core.exec.Operator;
import dev.columba.core.exec.ValuesOperator;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoStats;
import dev.columba.core.type.SqlType;
import dev.columba.planner.plan.PlannerCatalog;
import dev.columba.planner.plan.PreparedStatementPlan;
import dev.columba.planner.plan.StatementEnvironment;
import dev.columba.core.settings.SettingValues;
import dev.columba.planner.session.Engine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.util.CancelFlag;

/**
 * A hand-written planner for driver tests that must not wait for the query planner: whatever query
 * the session hands it, it returns the plan the test scripted last. The plans are real operator
 * trees (core's {@link ValuesOperator}) run by the real session, so result sets, statistics,
 * messages, parameters and cancellation travel the same path as for planned SQL.
 */
final class ScriptedPlanner implements Engine.StatementPlanner {
    private volatile PreparedStatementPlan next;
    private volatile Runnable whilePlanning = () -> {
    };

    /** The plan every following statement gets. */
    void willPlan(PreparedStatementPlan plan) {
        this.next = plan;
    }

    /** Something to do while the next statements are being planned (a cancel from the test, say). */
    void whilePlanning(Runnable action) {
        this.whilePlanning = action;
    }

    @Override
    public PreparedStatementPlan plan(PlannerCatalog catalog, SettingValues settings, SqlNode statement,
                                      CancelFlag cancel) {
        whilePlanning.run();
        PreparedStatementPlan plan = next;
        if (plan == null) {
            throw new AssertionError("the test scripted no plan for " + statement);
        }
        return plan;
    }

    /** A query producing {@code rows}, charging {@code io} to the statement's statistics as a scan would. */
    static PreparedStatementPlan rows(TableSchema schema, List<Object[]> rows, Map<String, IoStats> io) {
        return new Plan(schema, false, List.of(), environment -> {
            io.forEach((table, stats) -> environment.query().counters(table).addAll(stats));
            return new ValuesOperator(schema, rows);
        });
    }

    static PreparedStatementPlan rows(TableSchema schema, List<Object[]> rows) {
        return rows(schema, rows, Map.of());
    }

    /** A query of one row holding its parameters, as columns p1, p2, ... of the given types. */
    static PreparedStatementPlan echo(SqlType... parameterTypes) {
        List<Column> columns = new ArrayList<>();
        for (int index = 0; index < parameterTypes.length; index++) {
            columns.add(Column.nullable("p" + (index + 1), parameterTypes[index]));
        }
        TableSchema schema = new TableSchema(columns);
        return new EchoPlan(schema, List.of(parameterTypes));
    }

    /** A modification with parameters of the given types that reports {@code count} changed rows. */
    static PreparedStatementPlan update(long count, SqlType... parameterTypes) {
        TableSchema schema = TableSchema.of(Column.notNull("rows", SqlType.BIGINT));
        return new Plan(schema, true, List.of(parameterTypes),
                environment -> new ValuesOperator(schema, List.<Object[]>of(new Object[] {count})));
    }

    /**
     * A query whose first batch runs {@code onFirstBatch}, then waits until the statement is
     * cancelled and fails as a cancelled query does. The wait gives up after a minute (returning no
     * rows, which the test then reports) so that a broken cancel fails the test instead of hanging it.
     */
    static PreparedStatementPlan untilCancelled(Runnable onFirstBatch) {
        TableSchema schema = TableSchema.of(Column.nullable("n", SqlType.INT));
        return new Plan(schema, false, List.of(), environment -> new WaitForCancel(schema, onFirstBatch));
    }

    private interface OperatorFactory {
        Operator create(StatementEnvironment environment);
    }

    private record Plan(TableSchema schema, boolean modifies, List<SqlType> parameterTypes, OperatorFactory operators)
            implements PreparedStatementPlan {
        @Override
        public int[] objectIds() {
            return new int[0];
        }

        @Override
        public String explain() {
            return "Scripted";
        }

        @Override
        public boolean reusable() {
            return false;
        }

        @Override
        public Operator instantiate(StatementEnvironment environment, List<Object> parameters) {
            return operators.create(environment);
        }

        @Override
        public boolean insertsOneRowPerParameterSet() {
            return false;
        }

        @Override
        public Operator instantiateBatch(StatementEnvironment environment, List<List<Object>> parameterSets) {
            throw new IllegalStateException("a scripted plan runs its parameter sets one at a time");
        }
    }

    private record EchoPlan(TableSchema schema, List<SqlType> parameterTypes) implements PreparedStatementPlan {
        @Override
        public boolean modifies() {
            return false;
        }

        @Override
        public int[] objectIds() {
            return new int[0];
        }

        @Override
        public String explain() {
            return "Echo";
        }

        @Override
        public boolean reusable() {
            return false;
        }

        @Override
        public Operator instantiate(StatementEnvironment environment, List<Object> parameters) {
            return new ValuesOperator(schema, List.<Object[]>of(parameters.toArray()));
        }

        @Override
        public boolean insertsOneRowPerParameterSet() {
            return false;
        }

        @Override
        public Operator instantiateBatch(StatementEnvironment environment, List<List<Object>> parameterSets) {
            throw new IllegalStateException("a scripted plan runs its parameter sets one at a time");
        }
    }

    private static final class WaitForCancel implements Operator {
        private static final long GIVE_UP_NANOS = 60_000_000_000L;

        private final TableSchema schema;
        private final Runnable onFirstBatch;
        private ExecutionContext context;

        WaitForCancel(TableSchema schema, Runnable onFirstBatch) {
            this.schema = schema;
            this.onFirstBatch = onFirstBatch;
        }

        @Override
        public TableSchema schema() {
            return schema;
        }

        @Override
        public ExecutionMode mode() {
            return ExecutionMode.BATCH;
        }

        @Override
        public void open(ExecutionContext executionContext) {
            this.context = executionContext;
        }

        @Override
        public Batch next() {
            onFirstBatch.run();
            long start = System.nanoTime();
            while (!context.cancelled() && System.nanoTime() - start < GIVE_UP_NANOS) {
                Thread.onSpinWait();
            }
            context.checkCancelled();
            return null;
        }

        @Override
        public void close() {
        }
    }

    /** IoStats with the counters STATISTICS IO prints, and the read-ahead used / wasted split. */
    static IoStats io(long scans, long logical, long physical, long readAhead, long lobLogical, long lobPhysical,
                      long lobReadAhead, long used, long wasted, long segmentReads, long segmentSkipped) {
        return new IoStats(scans, logical, physical, readAhead, lobLogical, lobPhysical, lobReadAhead, used, wasted, 0, 0, 0,
                segmentReads, segmentSkipped);
    }

    static Map<String, IoStats> tables(Object... namesAndStats) {
        Map<String, IoStats> tables = new LinkedHashMap<>();
        for (int index = 0; index < namesAndStats.length; index += 2) {
            tables.put((String) namesAndStats[index], (IoStats) namesAndStats[index + 1]);
        }
        return tables;
    }
}

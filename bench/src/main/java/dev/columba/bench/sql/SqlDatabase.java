package dev.columba.bench.sql;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.planner.plan.QueryPlanner;
import dev.columba.planner.session.Engine;
import dev.columba.planner.session.Session;
import dev.columba.planner.session.StatementResult;
import dev.columba.planner.session.StatementStatistics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.apache.arrow.vector.BaseIntVector;

/**
 * A benchmark database opened as an application opens it: an {@link Engine} with the planner that
 * the JDBC driver uses, and one {@link Session} that every statement of the benchmark runs in.
 * Statements are SQL text with {@code ?} parameters; a query's rows are read to the end (batches
 * straight from the operator tree, no conversion to Java values beyond the checked column), so a
 * statement's elapsed time covers producing every row and its statistics are complete.
 *
 * <p>Lifetime: opened in a trial fixture, closed in its tear-down. One thread.
 */
public final class SqlDatabase implements AutoCloseable {
    private static final Engine.StatementPlanner PLANNER =
            (catalog, settings, statement, cancel) -> new QueryPlanner(catalog, settings).plan(statement);

    private final Engine engine;
    private final Session session;

    private SqlDatabase(Engine engine) {
        this.engine = engine;
        this.session = engine.openSession();
    }

    /**
     * Opens (or creates) the database in {@code directory} with the given startup and global
     * settings (e.g. {@code buffer_pool_size}, {@code direct_io}).
     */
    public static SqlDatabase open(Path directory, Properties settings) {
        return new SqlDatabase(Engine.open(directory, settings, PLANNER));
    }

    public Engine engine() {
        return engine;
    }

    /**
     * What a query produced: its rows, the sum of its first column (an integer column), and the
     * statement's statistics.
     */
    public record Executed(long rows, long sumOfFirstColumn, StatementStatistics statistics) {
    }

    /**
     * Runs one statement and reads its rows to the end.
     *
     * @throws ColumbaException as the statement fails
     */
    public Executed execute(String sql, Object... parameters) {
        try (StatementResult result = session.execute(sql, Arrays.asList(parameters))) {
            return switch (result) {
                case StatementResult.Rows rows -> readToEnd(rows);
                case StatementResult.Update update -> new Executed(update.count(), 0, update.statistics());
                case StatementResult.Command command -> new Executed(0, 0, command.statistics());
            };
        }
    }

    private static Executed readToEnd(StatementResult.Rows rows) {
        long count = 0;
        long sum = 0;
        for (Batch batch = rows.next(); batch != null; batch = rows.next()) {
            int selected = batch.selectedCount();
            count += selected;
            if (batch.columnCount() > 0 && batch.column(0) instanceof BaseIntVector first) {
                for (int position = 0; position < selected; position++) {
                    sum += first.getValueAsLong(batch.selectedRow(position));
                }
            }
        }
        rows.close();
        return new Executed(count, sum, rows.statistics());
    }

    /**
     * The one row {@code query} returns, as Java values.
     *
     * @throws ColumbaException INTERNAL if it returns no row or several
     */
    public List<Object> row(String query) {
        try (StatementResult result = session.execute(query)) {
            if (!(result instanceof StatementResult.Rows rows)) {
                throw new ColumbaException(ErrorCode.INTERNAL, query + " returned no rows");
            }
            List<Object> values = null;
            int count = 0;
            for (Batch batch = rows.next(); batch != null; batch = rows.next()) {
                for (int position = 0; position < batch.selectedCount(); position++) {
                    count++;
                    values = new ArrayList<>();
                    for (int column = 0; column < batch.columnCount(); column++) {
                        values.add(dev.columba.core.batch.VectorValues.get(batch.column(column), batch.selectedRow(position),
                                rows.schema().column(column).type()));
                    }
                }
            }
            rows.close();
            if (count != 1) {
                throw new ColumbaException(ErrorCode.INTERNAL, query + " returned " + count + " rows, not one");
            }
            return values;
        }
    }

    /** The plan of {@code query}, one line per operator, as {@code EXPLAIN} prints it. */
    public List<String> explain(String query) {
        try (StatementResult result = session.execute("EXPLAIN " + query)) {
            if (!(result instanceof StatementResult.Rows rows)) {
                throw new ColumbaException(ErrorCode.INTERNAL, "EXPLAIN gave no rows for " + query);
            }
            List<String> lines = new ArrayList<>();
            for (Batch batch = rows.next(); batch != null; batch = rows.next()) {
                for (int position = 0; position < batch.selectedCount(); position++) {
                    lines.add(String.valueOf(batch.column(0).getObject(batch.selectedRow(position))));
                }
            }
            rows.close();
            return lines;
        }
    }

    /**
     * Makes the next statement cold, as the seeds do: {@code CHECKPOINT} (so that no dirty page
     * stays behind, the comment on seed 000 asks for it) then {@code DBCC DROPCLEANBUFFERS} (the
     * pool emptied, the data files dropped from the operating system's page cache).
     */
    public void dropCleanBuffers() {
        execute("CHECKPOINT");
        execute("DBCC DROPCLEANBUFFERS");
    }

    @Override
    public void close() {
        try {
            session.close();
        } finally {
            engine.close();
        }
    }
}

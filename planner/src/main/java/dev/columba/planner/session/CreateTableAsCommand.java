package dev.columba.planner.session;

import dev.columba.core.batch.Batch;
import dev.columba.core.context.QueryContext;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.exec.Operator;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.settings.SettingValues;
import dev.columba.core.type.SqlType;
import dev.columba.planner.exec.TableModifyOperator;
import dev.columba.planner.parser.SqlCreateTable;
import dev.columba.planner.parser.SqlOption;
import dev.columba.planner.plan.PreparedStatementPlan;
import dev.columba.planner.plan.StatementEnvironment;
import dev.columba.storage.txn.Transaction;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.arrow.vector.BigIntVector;

/**
 * {@code CREATE TABLE t [WITH (option, ...)] AS query} and SQL Server's {@code SELECT ... INTO t
 * FROM ...} (which parses to the former): plans the query, creates the table with the query's
 * column names, types and nullability (a rowstore heap, or a columnstore table with
 * {@code storage = columnstore}), then loads the query's rows through the insert operator's bulk
 * path (a columnstore compresses rowgroups directly from 102,400 rows on). Creation and load are
 * one write transaction of the session: a failure leaves no table behind, and the files of
 * rowgroups a failed columnstore load wrote are deleted.
 */
final class CreateTableAsCommand {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Session session;
    private final DdlExecutor ddl;

    CreateTableAsCommand(Session session, DdlExecutor ddl) {
        this.session = session;
        this.ddl = ddl;
    }

    StatementResult execute(SqlCreateTable create, List<Object> parameters) {
        String name = create.name().names.getLast();
        SettingValues settings = session.settings();
        QueryContext query = session.newQuery(settings);
        long cpuStart = session.statementCpuStart();
        long start = System.nanoTime();
        Transaction transaction = session.writeTransaction();
        boolean succeeded = false;
        Path files = null;
        long rows = 0;
        Session.CompileTime compile = Session.CompileTime.CACHED;
        try {
            boolean exists = session.database().catalog().byName(transaction.writes(), name,
                    transaction.systemCounters()).isPresent();
            if (exists && create.ifNotExists()) {
                succeeded = true;
                return new StatementResult.Update(0, List.of(), StatementStatistics.NONE);
            }
            if (exists) {
                // SQL Server's Msg 2714.
                throw new ColumbaException(ErrorCode.OBJECT_ALREADY_EXISTS, "There is already an object named '"
                        + name + "' in the database");
            }
            long planCpuStart = THREADS.getCurrentThreadCpuTime();
            long planStart = System.nanoTime();
            PreparedStatementPlan source = session.engine().planner().plan(new SessionCatalog(session), settings, create,
                    session.compiling());
            compile = new Session.CompileTime(THREADS.getCurrentThreadCpuTime() - planCpuStart,
                    System.nanoTime() - planStart);
            if (source.parameterTypes().size() != parameters.size()) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "the statement has "
                        + source.parameterTypes().size() + " parameters, " + parameters.size() + " values were given");
            }
            Map<String, String> options = new LinkedHashMap<>();
            for (SqlOption option : create.options()) {
                options.put(option.name(), option.valueText().orElse("on"));
            }
            TableModifyOperator.Target target = ddl.createStorage(transaction, name, source.schema(), options,
                    Optional.empty());
            if (target instanceof TableModifyOperator.ColumnstoreTarget columnstore) {
                files = columnstore.table().fileDirectory();
            }
            try (Session.Execution execution = session.new Execution(new LoadPlan(source, target), parameters, query,
                    transaction.writes(), transaction)) {
                Batch batch = execution.operator.next();
                rows = ((BigIntVector) batch.column(0)).get(batch.selectedRow(0));
            }
            succeeded = true;
        } finally {
            session.finishDdl(transaction, succeeded);
            if (!succeeded && files != null) {
                deleteDirectory(files);
            }
        }
        session.engine().gatherColumnstoreStatistics(session.reader(), name);
        Session.Finished finished = session.finished(query, compile, cpuStart, start);
        return new StatementResult.Update(rows, finished.messages(), finished.statistics());
    }

    private static void deleteDirectory(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "the files of the table a failed load created, in "
                    + directory + ", could not be deleted: " + e.getMessage(), e);
        }
    }

    /** The query's plan with its rows inserted into the new table. */
    private record LoadPlan(PreparedStatementPlan source, TableModifyOperator.Target target)
            implements PreparedStatementPlan {
        @Override
        public TableSchema schema() {
            return TableSchema.of(dev.columba.core.schema.Column.notNull("rows", SqlType.BIGINT));
        }

        @Override
        public boolean modifies() {
            return true;
        }

        @Override
        public int[] objectIds() {
            return source.objectIds();
        }

        @Override
        public List<SqlType> parameterTypes() {
            return source.parameterTypes();
        }

        @Override
        public String explain() {
            return source.explain();
        }

        @Override
        public boolean reusable() {
            return false;
        }

        @Override
        public Operator instantiate(StatementEnvironment environment, List<Object> parameters) {
            boolean bulk = target instanceof TableModifyOperator.ColumnstoreTarget;
            return new TableModifyOperator(environment, source.instantiate(environment, parameters), target,
                    TableModifyOperator.Kind.INSERT, new int[0], bulk, false, Map.of());
        }

        @Override
        public boolean insertsOneRowPerParameterSet() {
            return false;
        }

        @Override
        public Operator instantiateBatch(StatementEnvironment environment, List<List<Object>> parameterSets) {
            throw new ColumbaException(ErrorCode.INTERNAL, "CREATE TABLE ... AS is not run in batches");
        }
    }
}

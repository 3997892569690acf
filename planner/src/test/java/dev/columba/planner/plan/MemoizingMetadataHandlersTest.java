package dev.columba.planner.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.JaninoRelMetadataProvider;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.MetadataHandlerProvider;
import org.apache.calcite.rel.metadata.ProxyingMetadataHandlerProvider;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.util.CancelFlag;
import org.apache.calcite.util.ImmutableBitSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reflective memoized metadata handlers answer as Janino's generated ones do: every kind of
 * metadata the planner and Calcite's rules ask for, on every node of physical plans over rowstore
 * and columnstore tables (scans, seeks, joins of each kind, aggregates, sorts, unions, windows);
 * and the heuristic phases' unmemoized handlers, made once, answer as per-query proxies do.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MemoizingMetadataHandlersTest {
    private static final List<String> QUERIES = List.of(
            "SELECT * FROM orders WHERE id < 300 AND customer = 5",
            "SELECT code, amount FROM facts WHERE customer IN (1, 2, 3) AND amount >= 100",
            "SELECT o.code, i.qty FROM items i JOIN orders o ON o.id = i.order_id WHERE i.qty > 2",
            "SELECT f.customer, COUNT(*), SUM(f.amount) FROM facts f JOIN orders o ON o.customer = f.customer "
                    + "GROUP BY f.customer HAVING COUNT(*) > 1 ORDER BY 2 DESC FETCH FIRST 5 ROWS ONLY",
            "SELECT id FROM orders o WHERE EXISTS (SELECT 1 FROM items i WHERE i.order_id = o.id AND i.qty > 3) "
                    + "AND NOT EXISTS (SELECT 1 FROM facts f WHERE f.id = o.id AND f.amount > 900)",
            "SELECT code FROM orders WHERE customer < 3 UNION SELECT code FROM facts WHERE id < 10",
            "SELECT id, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY amount) FROM orders WHERE id < 50",
            "SELECT o.id, i.qty FROM orders o LEFT JOIN items i ON i.order_id = o.id WHERE o.code = 'C7'");

    private TestDatabase db;

    @BeforeAll
    void load(@TempDir Path directory) {
        db = new TestDatabase(directory);
        TableSchema orders = TableSchema.of(Column.notNull("id", SqlType.INT), Column.notNull("code", SqlType.varchar(10)),
                Column.nullable("customer", SqlType.INT), Column.nullable("amount", SqlType.decimal(12, 2)));
        db.createRowstore("orders", orders, List.of(0), true);
        db.createRowstore("items", TableSchema.of(Column.notNull("order_id", SqlType.INT), Column.nullable("qty", SqlType.INT)),
                List.of(), false);
        db.createColumnstore("facts", orders);
        StringBuilder values = new StringBuilder();
        for (int id = 1; id <= 1000; id++) {
            values.append(values.isEmpty() ? "" : ", ").append("(").append(id).append(", 'C").append(id).append("', ")
                    .append(id % 97).append(", ").append(id % 1000).append(".25)");
        }
        db.update("INSERT INTO orders VALUES " + values);
        db.update("INSERT INTO facts VALUES " + values);
        db.update("INSERT INTO items VALUES (1, 4), (2, 5), (3, 1), (3, 6), (900, 2)");
        db.createIndex("orders", "ix_code", List.of(1), true);
    }

    @AfterAll
    void close() {
        db.close();
    }

    @Test
    void answersAsJaninosHandlersDo() {
        int compared = 0;
        for (String sql : QUERIES) {
            RelNode root = ((PlannedStatement) db.plan(sql)).root();
            RelMetadataQuery reflective = new RelMetadataQuery(new MemoizingMetadataHandlers(QueryPlanner.METADATA));
            RelMetadataQuery generated = new RelMetadataQuery(JaninoRelMetadataProvider.of(QueryPlanner.METADATA));
            for (RelNode rel : nodes(root)) {
                ImmutableBitSet all = ImmutableBitSet.range(rel.getRowType().getFieldCount());
                ImmutableBitSet first = ImmutableBitSet.of(0);
                List<Function<RelMetadataQuery, Object>> questions = List.of(
                        mq -> mq.getRowCount(rel),
                        mq -> mq.getMaxRowCount(rel),
                        mq -> mq.getMinRowCount(rel),
                        mq -> String.valueOf(mq.getCumulativeCost(rel)),
                        mq -> String.valueOf(mq.getNonCumulativeCost(rel)),
                        mq -> mq.getSelectivity(rel, null),
                        mq -> mq.getDistinctRowCount(rel, all, null),
                        mq -> mq.getDistinctRowCount(rel, first, null),
                        mq -> mq.getPopulationSize(rel, first),
                        mq -> String.valueOf(mq.getUniqueKeys(rel)),
                        mq -> mq.areColumnsUnique(rel, first),
                        mq -> String.valueOf(mq.getColumnOrigins(rel, 0)),
                        mq -> String.valueOf(mq.getPulledUpPredicates(rel).pulledUpPredicates),
                        mq -> String.valueOf(mq.collations(rel)),
                        mq -> mq.getAverageRowSize(rel),
                        mq -> String.valueOf(mq.getExpressionLineage(rel, rel.getCluster().getRexBuilder().makeInputRef(rel, 0))));
                for (Function<RelMetadataQuery, Object> question : questions) {
                    assertEquals(question.apply(generated), question.apply(reflective), () -> sql + "\n at " + rel);
                    // Asked again, the memoized answer.
                    assertEquals(question.apply(generated), question.apply(reflective), () -> sql + "\n at " + rel);
                    compared++;
                }
            }
        }
        assertTrue(compared > 500, "compared " + compared);
    }

    /**
     * The heuristic phases' handlers ({@link UnmemoizedMetadataHandlers}): made once and shared by
     * every query, answering as Calcite's proxies made per query do, and memoizing nothing.
     */
    @Test
    void theHeuristicPhasesHandlersAreSharedAnswerAsPerQueryProxiesAndMemoizeNothing() {
        UnmemoizedMetadataHandlers handlers = new UnmemoizedMetadataHandlers(QueryPlanner.METADATA);
        assertSame(handlers.handler(BuiltInMetadata.RowCount.Handler.class),
                handlers.handler(BuiltInMetadata.RowCount.Handler.class));
        int compared = 0;
        for (String sql : QUERIES) {
            RelNode root = ((PlannedStatement) db.plan(sql)).root();
            for (RelNode rel : nodes(root)) {
                ImmutableBitSet first = ImmutableBitSet.of(0);
                List<Function<RelMetadataQuery, Object>> questions = List.of(
                        mq -> mq.getRowCount(rel),
                        mq -> String.valueOf(mq.getCumulativeCost(rel)),
                        mq -> mq.getDistinctRowCount(rel, first, null),
                        mq -> String.valueOf(mq.getUniqueKeys(rel)),
                        mq -> String.valueOf(mq.getPulledUpPredicates(rel).pulledUpPredicates),
                        mq -> String.valueOf(mq.getColumnOrigins(rel, 0)));
                for (Function<RelMetadataQuery, Object> question : questions) {
                    RelMetadataQuery shared = new RelMetadataQuery(handlers);
                    RelMetadataQuery perQuery = new RelMetadataQuery(new ProxyingMetadataHandlerProvider(QueryPlanner.METADATA));
                    assertEquals(question.apply(perQuery), question.apply(shared), () -> sql + "\n at " + rel);
                    assertTrue(shared.map.isEmpty(), () -> "memoized " + shared.map + " for " + sql + " at " + rel);
                    compared++;
                }
            }
        }
        assertTrue(compared > 100, "compared " + compared);
    }

    @Test
    void aCycleThrowsAsTheGeneratedCodeDoes() {
        RelNode root = ((PlannedStatement) db.plan(QUERIES.get(2))).root();
        RelMetadataQuery reflective = new RelMetadataQuery(new MemoizingMetadataHandlers(QueryPlanner.METADATA));
        BuiltInMetadata.RowCount.Handler handler = new MemoizingMetadataHandlers(QueryPlanner.METADATA)
                .handler(BuiltInMetadata.RowCount.Handler.class);
        // A call in progress is marked; meeting the mark again is a cycle.
        reflective.map.put(root, keyOf(handler, root, reflective), org.apache.calcite.rel.metadata.NullSentinel.ACTIVE);
        assertThrows(org.apache.calcite.rel.metadata.CyclicMetadataException.class, () -> handler.getRowCount(root, reflective));
    }

    /**
     * A cancel that lands while the cost-based phase is inside a metadata call through these handlers
     * ends the statement with QUERY_CANCELLED (Volcano's next check stops the search), as it does with
     * Janino's; and the same statement without the cancel plans.
     */
    @Test
    void aCancelDuringAMetadataCallOfTheCostBasedPhaseIsQueryCancelled() {
        String sql = QUERIES.get(3);
        AtomicBoolean requested = new AtomicBoolean();
        AtomicInteger calls = new AtomicInteger();
        MetadataHandlerProvider cancelling = cancellingAtCall(new MemoizingMetadataHandlers(QueryPlanner.METADATA),
                1, calls, requested);
        ColumbaException cancelled = assertThrows(ColumbaException.class,
                () -> db.plan(sql, new CancelFlag(requested), cancelling));
        assertEquals(ErrorCode.QUERY_CANCELLED, cancelled.errorCode(), cancelled::getMessage);
        assertTrue(calls.get() >= 1, "the cancel came from inside a metadata call");

        AtomicBoolean never = new AtomicBoolean();
        MetadataHandlerProvider counting = cancellingAtCall(new MemoizingMetadataHandlers(QueryPlanner.METADATA),
                Integer.MAX_VALUE, new AtomicInteger(), never);
        assertTrue(db.plan(sql, new CancelFlag(never), counting).explain().contains("Join"), "plans without the cancel");
    }

    /**
     * A handler's own exception leaves the memoized handler as it was thrown, neither wrapped in an
     * {@code InvocationTargetException} nor in an {@code UndeclaredThrowableException} (Janino's
     * generated code calls the handler directly). A RuntimeException also clears the rel's memo, as
     * the generated code's {@code catch (Exception e)} does, so asking again calls the handler again
     * instead of reporting a cycle (an Error the generated code does not catch, nor do these).
     */
    @Test
    void aHandlersOwnExceptionComesOutUnwrapped() {
        RelNode root = ((PlannedStatement) db.plan(QUERIES.get(2))).root();
        RelNode values = LogicalValues.createOneRow(root.getCluster());

        IllegalStateException exception = new IllegalStateException("a handler failed");
        FailingValuesRowCount failing = new FailingValuesRowCount(exception);
        RelMetadataQuery query = new RelMetadataQuery(new MemoizingMetadataHandlers(failingFirst(failing)));
        assertSame(exception, assertThrows(IllegalStateException.class, () -> query.getRowCount(values)));
        assertSame(exception, assertThrows(IllegalStateException.class, () -> query.getRowCount(values)),
                "asked again: the handler again, not a cycle");
        assertEquals(2, failing.calls);

        AssertionError error = new AssertionError("a handler asserted");
        RelMetadataQuery another = new RelMetadataQuery(new MemoizingMetadataHandlers(failingFirst(new FailingValuesRowCount(error))));
        assertSame(error, assertThrows(AssertionError.class, () -> another.getRowCount(values)));
    }

    private static RelMetadataProvider failingFirst(FailingValuesRowCount failing) {
        return ChainedRelMetadataProvider.of(List.of(
                ReflectiveRelMetadataProvider.reflectiveSource(failing, BuiltInMetadata.RowCount.Handler.class),
                QueryPlanner.METADATA));
    }

    /** A row-count handler for VALUES that throws what it is given. */
    public static final class FailingValuesRowCount implements MetadataHandler<BuiltInMetadata.RowCount> {
        private final Throwable failure;
        int calls;

        FailingValuesRowCount(Throwable failure) {
            this.failure = failure;
        }

        @Override
        public MetadataDef<BuiltInMetadata.RowCount> getDef() {
            return BuiltInMetadata.RowCount.DEF;
        }

        public Double getRowCount(Values values, RelMetadataQuery mq) {
            calls++;
            if (failure instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw (Error) failure;
        }
    }

    /**
     * {@code handlers}, with a cancel requested inside the {@code at}-th metadata call (counted in
     * {@code calls}) before the call goes on to the handler: a cancel from another thread landing
     * while the planner's thread is in a handler.
     */
    private static MetadataHandlerProvider cancellingAtCall(MetadataHandlerProvider handlers, int at, AtomicInteger calls,
                                                            AtomicBoolean requested) {
        return new MetadataHandlerProvider() {
            @Override
            public <H extends MetadataHandler<?>> H handler(Class<H> handlerClass) {
                H inner = handlers.handler(handlerClass);
                InvocationHandler counting = (proxy, method, arguments) -> {
                    if (method.getDeclaringClass() == handlerClass && calls.incrementAndGet() == at) {
                        requested.set(true);
                    }
                    try {
                        return method.invoke(inner, arguments);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                };
                return handlerClass.cast(Proxy.newProxyInstance(handlerClass.getClassLoader(), new Class<?>[] {handlerClass},
                        counting));
            }
        };
    }

    /** The key the handler memoizes a row count under: the one entry a fresh query has after one call. */
    private static Object keyOf(BuiltInMetadata.RowCount.Handler handler, RelNode rel, RelMetadataQuery query) {
        handler.getRowCount(rel, query);
        Object key = query.map.row(rel).keySet().stream().filter(k -> k.toString().contains("getRowCount")).findFirst()
                .orElseThrow();
        query.map.row(rel).clear();
        return key;
    }

    private static List<RelNode> nodes(RelNode root) {
        List<RelNode> nodes = new ArrayList<>();
        nodes.add(root);
        for (int at = 0; at < nodes.size(); at++) {
            nodes.addAll(nodes.get(at).getInputs());
        }
        return nodes;
    }
}

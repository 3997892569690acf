package dev.columba.planner.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.ProxyingMetadataHandlerProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.util.ImmutableBitSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The heuristic phases' handlers, made once, answer as Calcite's proxying provider's made per query
 * do, memoize nothing, and are the same instances in every query.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UnmemoizedMetadataHandlersTest {
    private static final List<String> QUERIES = List.of(
            "SELECT o.code, i.qty FROM items i JOIN orders o ON o.id = i.order_id WHERE i.qty > 2",
            "SELECT customer, COUNT(*) FROM orders WHERE id < 300 GROUP BY customer HAVING COUNT(*) > 1",
            "SELECT id FROM orders o WHERE EXISTS (SELECT 1 FROM items i WHERE i.order_id = o.id AND i.qty > 3)",
            "SELECT code FROM orders WHERE customer < 3 UNION SELECT code FROM orders WHERE id < 10");

    private TestDatabase db;

    @BeforeAll
    void load(@TempDir Path directory) {
        db = new TestDatabase(directory);
        db.createRowstore("orders", TableSchema.of(Column.notNull("id", SqlType.INT), Column.notNull("code", SqlType.varchar(10)),
                Column.nullable("customer", SqlType.INT)), List.of(0), true);
        db.createRowstore("items", TableSchema.of(Column.notNull("order_id", SqlType.INT), Column.nullable("qty", SqlType.INT)),
                List.of(), false);
        db.update("INSERT INTO orders VALUES (1, 'C1', 1), (2, 'C2', 1), (3, 'C3', 2), (4, 'C4', 7)");
        db.update("INSERT INTO items VALUES (1, 4), (2, 5), (3, 1), (3, 6)");
    }

    @AfterAll
    void close() {
        db.close();
    }

    @Test
    void everyQueryGetsTheSameHandlers() {
        UnmemoizedMetadataHandlers handlers = new UnmemoizedMetadataHandlers(QueryPlanner.METADATA);
        assertSame(handlers.handler(BuiltInMetadata.RowCount.Handler.class),
                handlers.handler(BuiltInMetadata.RowCount.Handler.class));
        RelMetadataQuery first = new RelMetadataQuery(handlers);
        RelMetadataQuery second = new RelMetadataQuery(handlers);
        RelNode root = ((PlannedStatement) db.plan(QUERIES.getFirst())).root();
        assertEquals(first.getRowCount(root), second.getRowCount(root));
        assertSame(handlers.handler(BuiltInMetadata.Predicates.Handler.class),
                handlers.handler(BuiltInMetadata.Predicates.Handler.class));
    }

    @Test
    void answersAsHandlersMadePerQueryDoAndMemoizesNothing() {
        UnmemoizedMetadataHandlers handlers = new UnmemoizedMetadataHandlers(QueryPlanner.METADATA);
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
                    RelMetadataQuery reused = new RelMetadataQuery(handlers);
                    RelMetadataQuery perQuery = new RelMetadataQuery(new ProxyingMetadataHandlerProvider(QueryPlanner.METADATA));
                    assertEquals(question.apply(perQuery), question.apply(reused), () -> sql + "\n at " + rel);
                    assertTrue(reused.map.isEmpty(), () -> "memoized " + reused.map + " for " + sql + " at " + rel);
                    compared++;
                }
            }
        }
        assertTrue(compared > 50, "compared " + compared);
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

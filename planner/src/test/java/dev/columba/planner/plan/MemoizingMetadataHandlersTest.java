package dev.columba.planner.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import org.apache.calcite.rel.metadata.JaninoRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.util.ImmutableBitSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reflective memoized metadata handlers answer as Janino's generated ones do: every kind of
 * metadata the planner and Calcite's rules ask for, on every node of physical plans over rowstore
 * and columnstore tables (scans, seeks, joins of each kind, aggregates, sorts, unions, windows).
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

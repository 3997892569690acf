package dev.columba.planner.rules;

import dev.columba.core.expr.TypeRules;
import dev.columba.core.type.SqlType;
import dev.columba.planner.exec.IndexNestedLoopJoinOperator;
import dev.columba.planner.rel.ColumbaIndexNestedLoopJoin;
import dev.columba.planner.rel.ColumbaRel;
import dev.columba.planner.schema.RowstoreTable;
import dev.columba.planner.schema.SqlTypes;
import dev.columba.storage.table.IndexStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * A join whose right side is a rowstore table (possibly under a projection of its columns and a
 * filter) and whose equal keys cover the table's clustered key (or a prefix of it) or a unique
 * secondary index becomes an index nested-loop join: each outer row probes the table by key
 * instead of the table being scanned. Remaining conditions (other key pairs, non-equal
 * conditions, the inner filter) are checked per joined row.
 *
 * <p>Random prefetch: when the outer side is estimated at more than {@code prefetch_threshold_rows}
 * rows (25, SQL Server's threshold) and {@code prefetch} is on, the join prefetches the inner
 * pages its probes will need ({@code WithUnorderedPrefetch} in EXPLAIN).
 *
 * <pre>
 * before: LogicalJoin(condition=[=($1, $6)], joinType=[inner])
 *           LogicalFilter(condition=[&lt;($0, 27)]) ... TestTable
 *           LogicalTableScan(table=[[testtable2]])          -- clustered on IDvarchar, unique
 * after:  ColumbaIndexNestedLoopJoin(inner=[testtable2], access=[CLUSTERED_UNIQUE], outerKeys=[1], prefetch=[UNORDERED])
 *           (outer converted to COLUMBA)
 * </pre>
 * Does not fire under {@code OPTION (HASH JOIN)}, for RIGHT or FULL joins, for columnstore or
 * system-view inner sides, or when no equal key serves an index (or the key types differ in
 * family, or are CHAR against VARCHAR).
 */
public final class ColumbaIndexNestedLoopJoinRule extends RelRule<RuleConfig> {
    private final PlanHints hints;

    private ColumbaIndexNestedLoopJoinRule(RuleConfig config, PlanHints hints) {
        super(config);
        this.hints = hints;
    }

    public static ColumbaIndexNestedLoopJoinRule create(PlanHints hints) {
        return (ColumbaIndexNestedLoopJoinRule) RuleConfig.of("ColumbaIndexNestedLoopJoinRule",
                b -> b.operand(LogicalJoin.class).anyInputs(), config -> new ColumbaIndexNestedLoopJoinRule(config, hints))
                .toRule();
    }

    /** The inner side seen through projections of columns and filters: a table, its columns, a filter on them. */
    private record Inner(RelOptTable table, int[] projection, RexNode filter) {
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalJoin join = call.rel(0);
        JoinRelType type = join.getJoinType();
        // A FULL join returns the inner rows no outer row found: a seek per outer row cannot know them.
        if (!hints.allowsLoopJoin() || !ColumbaHashJoinRule.supported(type) || type == JoinRelType.FULL) {
            return;
        }
        Inner inner = findInner(join.getRight(), 0);
        if (inner == null) {
            return;
        }
        RowstoreTable table = inner.table().unwrap(RowstoreTable.class);
        JoinInfo info = join.analyzeCondition();
        if (info.leftKeys.isEmpty()) {
            return;
        }
        int outerColumns = join.getLeft().getRowType().getFieldCount();
        List<RelDataType> outerTypes = join.getLeft().getRowType().getFieldList().stream().map(f -> f.getType()).toList();
        // Equal pairs: outer column -> inner table column, kept only where the types can be probed.
        List<int[]> pairs = new ArrayList<>();
        List<int[]> unusable = new ArrayList<>();
        for (int key = 0; key < info.leftKeys.size(); key++) {
            int outer = info.leftKeys.get(key);
            int tableColumn = inner.projection()[info.rightKeys.get(key)];
            int[] pair = {outer, tableColumn};
            if (probeable(SqlTypes.fromRelType(outerTypes.get(outer)), table.schema().column(tableColumn).type())) {
                pairs.add(pair);
            } else {
                unusable.add(pair);
            }
        }
        Choice choice = choose(table, pairs);
        if (choice == null) {
            return;
        }
        RexBuilder builder = join.getCluster().getRexBuilder();
        List<RexNode> residual = new ArrayList<>();
        RelDataType tableType = inner.table().getRowType();
        for (int[] pair : pairs) {
            if (!choice.usedTableColumns().contains(pair[1])) {
                residual.add(equality(builder, outerTypes.get(pair[0]), pair[0], tableType, pair[1], outerColumns));
            }
        }
        for (int[] pair : unusable) {
            residual.add(equality(builder, outerTypes.get(pair[0]), pair[0], tableType, pair[1], outerColumns));
        }
        RexNode remaining = RexUtil.composeConjunction(builder, info.nonEquiConditions);
        if (!remaining.isAlwaysTrue()) {
            residual.add(remaining.accept(new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef reference) {
                    int index = reference.getIndex();
                    return index < outerColumns ? reference
                            : builder.makeInputRef(reference.getType(), outerColumns + inner.projection()[index - outerColumns]);
                }
            }));
        }
        if (inner.filter() != null) {
            residual.add(RexUtil.shift(inner.filter(), outerColumns));
        }
        RexNode condition = residual.isEmpty() ? null : RexUtil.composeConjunction(builder, residual);
        double outerRows = call.getMetadataQuery().getRowCount(join.getLeft());
        ColumbaIndexNestedLoopJoin.Prefetch prefetch = hints.prefetch() && outerRows > hints.prefetchThresholdRows()
                ? ColumbaIndexNestedLoopJoin.Prefetch.UNORDERED : ColumbaIndexNestedLoopJoin.Prefetch.NONE;
        RelNode outer = convert(join.getLeft(), join.getLeft().getTraitSet().replace(ColumbaRel.CONVENTION));
        call.transformTo(new ColumbaIndexNestedLoopJoin(join.getCluster(), join.getTraitSet().replace(ColumbaRel.CONVENTION),
                outer, inner.table(), choice.access(), choice.indexName(), choice.outerKeys(), inner.projection(), type,
                condition, prefetch));
    }

    private static RexNode equality(RexBuilder builder, RelDataType outerType, int outer, RelDataType tableType, int tableColumn,
                                    int outerColumns) {
        return builder.makeCall(SqlStdOperatorTable.EQUALS, builder.makeInputRef(outerType, outer),
                builder.makeInputRef(tableType.getFieldList().get(tableColumn).getType(), outerColumns + tableColumn));
    }

    /** Whether an outer value of one type can probe a key of the other: same family, and no CHAR against VARCHAR. */
    private static boolean probeable(SqlType outer, SqlType key) {
        if (TypeRules.family(outer) != TypeRules.family(key)) {
            return false;
        }
        if (TypeRules.isString(outer)) {
            return outer.getClass() == key.getClass();
        }
        return true;
    }

    private record Choice(IndexNestedLoopJoinOperator.Access access, String indexName, int[] outerKeys,
                          List<Integer> usedTableColumns) {
    }

    /** The best access path the equal pairs allow: the whole unique clustered key, a clustered prefix, a unique index. */
    private static Choice choose(RowstoreTable table, List<int[]> pairs) {
        if (table.store().tree() != null) {
            List<Integer> keys = table.keyColumns();
            List<Integer> outerKeys = new ArrayList<>();
            for (int key : keys) {
                int outer = outerFor(pairs, key);
                if (outer < 0) {
                    break;
                }
                outerKeys.add(outer);
            }
            if (!outerKeys.isEmpty()) {
                boolean whole = outerKeys.size() == keys.size() && table.uniqueKey();
                return new Choice(whole ? IndexNestedLoopJoinOperator.Access.CLUSTERED_UNIQUE
                        : IndexNestedLoopJoinOperator.Access.CLUSTERED_PREFIX, null,
                        outerKeys.stream().mapToInt(Integer::intValue).toArray(), keys.subList(0, outerKeys.size()));
            }
        }
        for (IndexStore index : table.store().indexes()) {
            if (!index.definition().unique()) {
                continue;
            }
            List<Integer> outerKeys = new ArrayList<>();
            for (int key : index.definition().keyColumns()) {
                int outer = outerFor(pairs, key);
                if (outer < 0) {
                    break;
                }
                outerKeys.add(outer);
            }
            if (outerKeys.size() == index.definition().keyColumns().size()) {
                return new Choice(IndexNestedLoopJoinOperator.Access.SECONDARY_INDEX, index.definition().name(),
                        outerKeys.stream().mapToInt(Integer::intValue).toArray(), index.definition().keyColumns());
            }
        }
        return null;
    }

    private static int outerFor(List<int[]> pairs, int tableColumn) {
        for (int[] pair : pairs) {
            if (pair[1] == tableColumn) {
                return pair[0];
            }
        }
        return -1;
    }

    /** Looks through the rels of the right side's set for scan, project-of-columns and filter chains. */
    private static Inner findInner(RelNode node, int depth) {
        if (depth > 4) {
            return null;
        }
        List<RelNode> candidates = node instanceof RelSubset subset ? subset.getRelList() : List.of(node);
        for (RelNode rel : candidates) {
            Inner found = switch (rel) {
                case LogicalTableScan scan when scan.getTable().unwrap(RowstoreTable.class) != null -> {
                    int[] all = new int[scan.getRowType().getFieldCount()];
                    Arrays.setAll(all, column -> column);
                    yield new Inner(scan.getTable(), all, null);
                }
                case LogicalProject project when project.getProjects().stream().allMatch(p -> p instanceof RexInputRef) -> {
                    Inner below = findInner(project.getInput(), depth + 1);
                    if (below == null) {
                        yield null;
                    }
                    int[] projection = project.getProjects().stream()
                            .mapToInt(p -> below.projection()[((RexInputRef) p).getIndex()]).toArray();
                    yield new Inner(below.table(), projection, below.filter());
                }
                case LogicalFilter filter -> {
                    Inner below = findInner(filter.getInput(), depth + 1);
                    if (below == null) {
                        yield null;
                    }
                    RexNode mapped = filter.getCondition().accept(new RexShuttle() {
                        @Override
                        public RexNode visitInputRef(RexInputRef reference) {
                            return new RexInputRef(below.projection()[reference.getIndex()], reference.getType());
                        }
                    });
                    RexNode combined = below.filter() == null ? mapped : RexUtil.composeConjunction(
                            filter.getCluster().getRexBuilder(), List.of(below.filter(), mapped));
                    yield new Inner(below.table(), below.projection(), combined);
                }
                default -> null;
            };
            if (found != null) {
                return found;
            }
        }
        return null;
    }
}

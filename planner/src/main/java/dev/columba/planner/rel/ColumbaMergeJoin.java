package dev.columba.planner.rel;

import dev.columba.core.exec.MergeJoinOperator;
import dev.columba.core.exec.Operator;
import dev.columba.core.exec.SortKey;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

/**
 * Equi-join of two inputs sorted on the join keys (core's {@link MergeJoinOperator}): both are
 * streamed and only the right rows of the keys the current left batch holds are kept, with no
 * hash table. Chosen where both inputs arrive in key order (clustered rowstore scans on their key,
 * index seeks, sorts; see {@link KeyOrder}), and under {@code OPTION (MERGE JOIN)}, whose rule puts
 * sorts below the inputs that are not. Conditions beyond the equal keys are checked on the pairs;
 * keys whose vectors differ in type are cast to their common type, which keeps their order.
 *
 * <p>The order is read from the physical inputs again when the join is instantiated: an input
 * that no longer delivers it (the optimizer chose another access path for the same rows, a
 * parallel fragment's gather) is sorted by an operator of the join's own, which {@code EXPLAIN}
 * names ({@code sorts left}), so the join never depends on an order the plan does not deliver.
 */
public final class ColumbaMergeJoin extends Join implements ColumbaRel {
    /** Per row of the left input: reading it and comparing its key; the same for the right input, plus copying its run. */
    private static final double LEFT_ROW = Costs.BATCH_ROW;
    private static final double RIGHT_ROW = 2 * Costs.BATCH_ROW;

    public ColumbaMergeJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left, RelNode right, RexNode condition,
                            JoinRelType joinType) {
        super(cluster, traits, List.of(), left, right, condition, java.util.Set.of(), joinType);
        if (!supports(joinType)) {
            throw new IllegalArgumentException("a merge join is INNER, LEFT, SEMI or ANTI, not " + joinType);
        }
    }

    /** Whether a merge join of {@code type} exists (core's merge join returns no unmatched right rows). */
    public static boolean supports(JoinRelType type) {
        return type == JoinRelType.INNER || type == JoinRelType.LEFT || type == JoinRelType.SEMI || type == JoinRelType.ANTI;
    }

    @Override
    public Join copy(RelTraitSet traitSet, RexNode condition, RelNode left, RelNode right, JoinRelType joinType,
                     boolean semiJoinDone) {
        return new ColumbaMergeJoin(getCluster(), traitSet, left, right, condition, joinType);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double left = mq.getRowCount(getLeft());
        double right = mq.getRowCount(getRight());
        double out = mq.getRowCount(this);
        return Costs.cost(planner, out, left * LEFT_ROW + right * RIGHT_ROW * RowBytes.weight(getRight(), mq)
                + out * Costs.BATCH_ROW, 0);
    }

    /** The merge order of the inputs as they are: the one both deliver, else the one to sort for. */
    private KeyOrder.Merge merge() {
        JoinInfo info = analyzeCondition();
        List<RelFieldCollation> left = KeyOrder.of(getLeft());
        List<RelFieldCollation> right = KeyOrder.of(getRight());
        KeyOrder.Merge both = KeyOrder.both(left, right, info);
        return both != null ? both : KeyOrder.toSort(left, right, info);
    }

    @Override
    public String explainDetail() {
        JoinInfo info = analyzeCondition();
        KeyOrder.Merge merge = merge();
        StringBuilder detail = new StringBuilder(getJoinType() + ", " + condition);
        if (merge.descending().contains(true)) {
            detail.append(", keys ").append(merge.descending().stream().map(down -> down ? "DESC" : "ASC").toList());
        }
        if (!KeyOrder.delivers(KeyOrder.of(getLeft()), merge, info.leftKeys)) {
            detail.append(", sorts left");
        }
        if (!KeyOrder.delivers(KeyOrder.of(getRight()), merge, info.rightKeys)) {
            detail.append(", sorts right");
        }
        return detail.toString();
    }

    @Override
    public Operator instantiate(Execution execution) {
        Joins.Inputs inputs = new Joins.Inputs(execution.instantiate(getLeft()), execution.instantiate(getRight()));
        JoinInfo info = analyzeCondition();
        KeyOrder.Merge merge = merge();
        List<Integer> leftKeys = new ArrayList<>();
        List<Integer> rightKeys = new ArrayList<>();
        for (int pair : merge.pairs()) {
            int leftColumn = info.leftKeys.get(pair);
            int rightColumn = info.rightKeys.get(pair);
            inputs = inputs.withCommonKeyType(leftColumn, rightColumn);
            leftKeys.add(leftColumn);
            rightKeys.add(rightColumn);
        }
        Operator left = inputs.left();
        Operator right = inputs.right();
        if (!KeyOrder.delivers(KeyOrder.of(getLeft()), merge, info.leftKeys)) {
            left = new dev.columba.core.exec.SortOperator(left, sortKeys(leftKeys, merge.descending()));
        }
        if (!KeyOrder.delivers(KeyOrder.of(getRight()), merge, info.rightKeys)) {
            right = new dev.columba.core.exec.SortOperator(right, sortKeys(rightKeys, merge.descending()));
        }
        RexNode remaining = RexUtil.composeConjunction(getCluster().getRexBuilder(), info.nonEquiConditions);
        return new MergeJoinOperator(left, right, Joins.joinType(getJoinType()), leftKeys, rightKeys, merge.descending(),
                Joins.condition(execution, remaining, left.schema(), right.schema()));
    }

    private static List<SortKey> sortKeys(List<Integer> columns, List<Boolean> descending) {
        List<SortKey> keys = new ArrayList<>();
        for (int index = 0; index < columns.size(); index++) {
            keys.add(new SortKey(columns.get(index), descending.get(index), descending.get(index)));
        }
        return keys;
    }
}

package dev.columba.planner.rules;

import dev.columba.planner.rel.ColumbaMergeJoin;
import dev.columba.planner.rel.ColumbaRel;
import dev.columba.planner.rel.KeyOrder;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalSort;

/**
 * An equi-join (INNER, LEFT, SEMI or ANTI with at least one equal-keys pair) whose inputs both
 * arrive sorted on the join keys, in the same order and directions ({@link KeyOrder}: clustered
 * rowstore scans on their key, index seeks, sorts), becomes a merge join as well; the cost model
 * chooses between it and the hash join (a merge join builds no table). Under
 * {@code OPTION (MERGE JOIN)} it is the only join offered for such joins, and an input that is
 * not sorted gets a sort (both, ascending, when neither is; else the other side in the sorted
 * one's order).
 *
 * <pre>
 * before: LogicalJoin(condition=[=($0, $9)], joinType=[inner])
 *           LogicalTableScan(table=[orders])        clustered on o_orderkey ($0)
 *           LogicalTableScan(table=[lineitem])      clustered on (l_orderkey, l_linenumber)
 * after:  ColumbaMergeJoin(condition=[=($0, $9)], joinType=[inner])   (inputs converted to COLUMBA)
 *
 * before (MERGE JOIN, right input not sorted on $4):
 *         LogicalJoin(condition=[=($0, $4)], joinType=[inner])
 * after:  ColumbaMergeJoin(condition=[=($0, $4)], joinType=[inner])
 *           left input, right input under LogicalSort(sort0=[$0], dir0=[ASC])
 * </pre>
 * Does not fire for joins without an equality between the sides, FULL and RIGHT joins, inputs not
 * both sorted (without the hint), or under LOOP JOIN or HASH JOIN.
 */
public final class ColumbaMergeJoinRule extends RelRule<RuleConfig> {
    private final PlanHints hints;

    private ColumbaMergeJoinRule(RuleConfig config, PlanHints hints) {
        super(config);
        this.hints = hints;
    }

    public static ColumbaMergeJoinRule create(PlanHints hints) {
        return (ColumbaMergeJoinRule) RuleConfig.of("ColumbaMergeJoinRule",
                b -> b.operand(LogicalJoin.class).anyInputs(), config -> new ColumbaMergeJoinRule(config, hints)).toRule();
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalJoin join = call.rel(0);
        if (!hints.allowsMergeJoin() || !ColumbaMergeJoin.supports(join.getJoinType())) {
            return;
        }
        JoinInfo info = join.analyzeCondition();
        if (info.leftKeys.isEmpty()) {
            return;
        }
        List<RelFieldCollation> leftOrder = KeyOrder.of(join.getLeft());
        List<RelFieldCollation> rightOrder = KeyOrder.of(join.getRight());
        RelNode left = join.getLeft();
        RelNode right = join.getRight();
        if (KeyOrder.both(leftOrder, rightOrder, info) == null) {
            if (hints.joinHint() != PlanHints.JoinHint.MERGE) {
                return;
            }
            KeyOrder.Merge merge = KeyOrder.toSort(leftOrder, rightOrder, info);
            if (!KeyOrder.delivers(leftOrder, merge, info.leftKeys)) {
                left = LogicalSort.create(left, merge.collation(info.leftKeys), null, null);
            }
            if (!KeyOrder.delivers(rightOrder, merge, info.rightKeys)) {
                right = LogicalSort.create(right, merge.collation(info.rightKeys), null, null);
            }
        }
        call.transformTo(new ColumbaMergeJoin(join.getCluster(), join.getTraitSet().replace(ColumbaRel.CONVENTION),
                convert(left, left.getTraitSet().replace(ColumbaRel.CONVENTION)),
                convert(right, right.getTraitSet().replace(ColumbaRel.CONVENTION)), join.getCondition(), join.getJoinType()));
    }
}

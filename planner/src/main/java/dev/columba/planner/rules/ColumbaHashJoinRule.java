package dev.columba.planner.rules;

import dev.columba.planner.rel.ColumbaHashJoin;
import dev.columba.planner.rel.ColumbaRel;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;

/**
 * An equi-join (INNER, LEFT, SEMI, ANTI with at least one equal-keys pair) becomes a hash join
 * building on its right input, unless {@code OPTION (LOOP JOIN)} forbids it. Join commutation
 * offers the other side as build side too for inner joins; a SEMI or ANTI join, which cannot be
 * commuted, is offered as a hash join building on its left (preserved) input as well, and so is a
 * LEFT join (which the inner joins' commutation does not reach). The cost model prefers the smaller
 * build.
 *
 * <pre>
 * before: LogicalJoin(condition=[=($0, $6)], joinType=[inner])
 * after:  ColumbaHashJoin(condition=[=($0, $6)], joinType=[inner])   (inputs converted to COLUMBA)
 *
 * before: LogicalJoin(condition=[=($0, $4)], joinType=[semi])
 * after:  ColumbaHashJoin(condition=[=($0, $4)], joinType=[semi])
 *         ColumbaHashJoin(condition=[=($0, $4)], joinType=[semi], build=[left])
 * </pre>
 * Does not fire for joins without an equality between the sides, RIGHT joins (the logical phase
 * turns them into LEFT joins), or under LOOP JOIN. A FULL join builds its right input and returns
 * the build rows no left row matched once probing is done. Under MERGE JOIN only FULL joins are
 * hash joins (a merge join cannot do them).
 */
public final class ColumbaHashJoinRule extends RelRule<RuleConfig> {
    private final PlanHints hints;

    private ColumbaHashJoinRule(RuleConfig config, PlanHints hints) {
        super(config);
        this.hints = hints;
    }

    public static ColumbaHashJoinRule create(PlanHints hints) {
        return (ColumbaHashJoinRule) RuleConfig.of("ColumbaHashJoinRule",
                b -> b.operand(LogicalJoin.class).anyInputs(), config -> new ColumbaHashJoinRule(config, hints)).toRule();
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalJoin join = call.rel(0);
        if (!hints.allowsHashJoin(join.getJoinType()) || !supported(join.getJoinType())) {
            return;
        }
        JoinInfo info = join.analyzeCondition();
        if (info.leftKeys.isEmpty()) {
            return;
        }
        RelNode left = convert(join.getLeft(), join.getLeft().getTraitSet().replace(ColumbaRel.CONVENTION));
        RelNode right = convert(join.getRight(), join.getRight().getTraitSet().replace(ColumbaRel.CONVENTION));
        call.transformTo(new ColumbaHashJoin(join.getCluster(), join.getTraitSet().replace(ColumbaRel.CONVENTION), left, right,
                join.getCondition(), join.getJoinType(), false));
        if (ColumbaHashJoin.buildsLeftIn(join.getJoinType())) {
            call.transformTo(new ColumbaHashJoin(join.getCluster(), join.getTraitSet().replace(ColumbaRel.CONVENTION), left, right,
                    join.getCondition(), join.getJoinType(), true));
        }
    }

    static boolean supported(JoinRelType type) {
        return type == JoinRelType.INNER || type == JoinRelType.LEFT || type == JoinRelType.SEMI || type == JoinRelType.ANTI
                || type == JoinRelType.FULL;
    }
}

package dev.columba.planner.rules;

import dev.columba.planner.rel.ColumbaNestedLoopJoin;
import dev.columba.planner.rel.ColumbaRel;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalJoin;

/**
 * Any join (INNER, LEFT, SEMI, ANTI) becomes a nested-loop join over a materialized right input:
 * the only way to run a join without equal keys, and what {@code OPTION (LOOP JOIN)} asks for when
 * no index serves the inner side. Under {@code OPTION (HASH JOIN)} it fires only for joins that
 * have no equal keys (there is no other way to run them).
 *
 * <pre>
 * before: LogicalJoin(condition=[&lt;($0, $6)], joinType=[inner])
 * after:  ColumbaNestedLoopJoin(condition=[&lt;($0, $6)], joinType=[inner])
 * </pre>
 */
public final class ColumbaNestedLoopJoinRule extends RelRule<RuleConfig> {
    private final PlanHints hints;

    private ColumbaNestedLoopJoinRule(RuleConfig config, PlanHints hints) {
        super(config);
        this.hints = hints;
    }

    public static ColumbaNestedLoopJoinRule create(PlanHints hints) {
        return (ColumbaNestedLoopJoinRule) RuleConfig.of("ColumbaNestedLoopJoinRule",
                b -> b.operand(LogicalJoin.class).anyInputs(), config -> new ColumbaNestedLoopJoinRule(config, hints)).toRule();
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalJoin join = call.rel(0);
        if (!ColumbaHashJoinRule.supported(join.getJoinType())) {
            return;
        }
        if (!hints.allowsLoopJoin() && !join.analyzeCondition().leftKeys.isEmpty()) {
            return;
        }
        RelNode left = convert(join.getLeft(), join.getLeft().getTraitSet().replace(ColumbaRel.CONVENTION));
        RelNode right = convert(join.getRight(), join.getRight().getTraitSet().replace(ColumbaRel.CONVENTION));
        call.transformTo(new ColumbaNestedLoopJoin(join.getCluster(), join.getTraitSet().replace(ColumbaRel.CONVENTION), left,
                right, join.getCondition(), join.getJoinType()));
    }
}

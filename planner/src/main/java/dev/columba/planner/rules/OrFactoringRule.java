package dev.columba.planner.rules;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Pulls the conjuncts that every branch of an OR shares out of it, in filter and join conditions
 * (a logical rewrite). TPC-H Q19 repeats its join predicate in each of three OR branches; left
 * inside the OR, the join has no equi-key and becomes a nested-loop join over the cross product.
 * Pulled out, it is an equi-join the hash and index joins can run, the rest of the OR staying a
 * residual condition.
 *
 * <pre>
 * before: LogicalFilter(condition=[OR(AND(=($0, $5), =($6, 'A')), AND(=($0, $5), &gt;($1, 10)))])
 *           LogicalJoin(condition=[true], joinType=[inner])
 * after:  LogicalFilter(condition=[AND(=($0, $5), OR(=($6, 'A'), &gt;($1, 10)))])
 *           LogicalJoin(condition=[true], joinType=[inner])
 * </pre>
 * Does not fire when the condition has no OR, or when no conjunct is common to all its branches.
 */
public final class OrFactoringRule extends RelRule<RuleConfig> {
    private OrFactoringRule(RuleConfig config) {
        super(config);
    }

    public static OrFactoringRule create() {
        return (OrFactoringRule) RuleConfig.of("OrFactoringRule",
                b -> b.operand(RelNode.class).predicate(OrFactoringRule::hasOr).anyInputs(),
                OrFactoringRule::new).toRule();
    }

    private static boolean hasOr(RelNode rel) {
        RexNode condition = condition(rel);
        return condition != null && RexUtil.find(SqlKind.OR).contains(condition);
    }

    private static RexNode condition(RelNode rel) {
        return switch (rel) {
            case Filter filter -> filter.getCondition();
            case Join join -> join.getCondition();
            default -> null;
        };
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        RelNode rel = call.rel(0);
        RexNode condition = condition(rel);
        RexNode factored = RexUtil.pullFactors(rel.getCluster().getRexBuilder(), condition);
        // pullFactors rebuilds the tree even when it finds nothing to pull; equal text means no change.
        if (factored.toString().equals(condition.toString())) {
            return;
        }
        RelNode rewritten = switch (rel) {
            case Filter filter -> filter.copy(filter.getTraitSet(), filter.getInput(), factored);
            case Join join -> join.copy(join.getTraitSet(), factored, join.getLeft(), join.getRight(), join.getJoinType(),
                    join.isSemiJoinDone());
            default -> throw new IllegalStateException("OrFactoringRule matched " + rel);
        };
        call.transformTo(rewritten);
    }
}

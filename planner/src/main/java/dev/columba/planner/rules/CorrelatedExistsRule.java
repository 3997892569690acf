package dev.columba.planner.rules;

import java.util.ArrayList;
import java.util.List;
import com.google.common.collect.ImmutableSet;
import java.util.Set;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * {@code EXISTS} and {@code NOT EXISTS} over one filtered input that is correlated only through
 * its filter become SEMI and ANTI joins on that filter's condition (a logical rewrite, before
 * sub-queries are decorrelated in general).
 *
 * <p>Calcite's general path turns such a sub-query into a join with the distinct values of the
 * outer columns it references (a value generator) and, for NOT EXISTS, a LEFT join and an
 * {@code IS NULL} test. For TPC-H Q21, whose sub-queries are correlated by
 * {@code l2.l_orderkey = l1.l_orderkey AND l2.l_suppkey <> l1.l_suppkey}, that meant joining
 * lineitem with itself and aggregating the result twice. As a join, the correlation is the join
 * condition: the equal keys hash, the rest is a residual, and NULLs keep their meaning (a pair
 * whose condition is NULL is no match, so NOT EXISTS keeps the outer row).
 *
 * <pre>
 * before: LogicalFilter(condition=[AND(&gt;($2, 0), NOT(EXISTS({
 *             LogicalFilter(condition=[AND(=($0, $cor0.a), &lt;&gt;($1, $cor0.b))])
 *               LogicalTableScan(table=[[t]])})))], variablesSet=[[$cor0]])
 *           R
 * after:  LogicalFilter(condition=[&gt;($2, 0)])
 *           LogicalJoin(condition=[AND(=($k, $a), &lt;&gt;($k+1, $b))], joinType=[anti])
 *             R
 *             LogicalTableScan(table=[[t]])
 * </pre>
 * Conjuncts of the sub-query's filter that do not refer to the outer row stay a filter on its
 * input (Calcite pushes nothing into the inner side of an ANTI join by itself):
 * <pre>
 *   ... EXISTS(LogicalFilter(condition=[AND(=($0, $cor0.a), &gt;($3, $2))]) T)
 *   ... LogicalJoin(condition=[=($k, $a)], joinType=[semi])
 *         R
 *         LogicalFilter(condition=[&gt;($3, $2)])
 *           T
 * </pre>
 * Fires for one sub-query at a time, the first conjunct of the form {@code EXISTS(q)} or
 * {@code NOT EXISTS(q)} where q is projections (of anything but correlation variables) over one
 * filter over an uncorrelated input, and the filter refers to the outer row through this
 * filter's correlation variable only. Anything else is left to the general path.
 */
public final class CorrelatedExistsRule extends RelRule<RuleConfig> {
    private CorrelatedExistsRule(RuleConfig config) {
        super(config);
    }

    public static CorrelatedExistsRule create() {
        return (CorrelatedExistsRule) RuleConfig.of("CorrelatedExistsRule",
                b -> b.operand(LogicalFilter.class).predicate(filter -> !filter.getVariablesSet().isEmpty()
                        && RexUtil.SubQueryFinder.find(filter.getCondition()) != null).anyInputs(),
                CorrelatedExistsRule::new).toRule();
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalFilter filter = call.rel(0);
        List<RexNode> conjuncts = RelOptUtil.conjunctions(filter.getCondition());
        for (int index = 0; index < conjuncts.size(); index++) {
            RexNode conjunct = conjuncts.get(index);
            boolean negated = conjunct.getKind() == SqlKind.NOT;
            RexNode operand = negated ? ((RexCall) conjunct).getOperands().get(0) : conjunct;
            if (!(operand instanceof RexSubQuery subQuery) || subQuery.getKind() != SqlKind.EXISTS) {
                continue;
            }
            RelNode joined = join(filter, subQuery, negated ? JoinRelType.ANTI : JoinRelType.SEMI);
            if (joined == null) {
                continue;
            }
            List<RexNode> rest = new ArrayList<>(conjuncts);
            rest.remove(index);
            RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
            RexNode remaining = RexUtil.composeConjunction(rexBuilder, rest);
            // The join keeps the filter input's columns, so the rest of the condition (other
            // sub-queries correlated through the same variable included) reads them unchanged.
            boolean correlated = RexUtil.SubQueryFinder.find(remaining) != null;
            RelNode result = remaining.isAlwaysTrue() ? joined
                    : LogicalFilter.create(joined, remaining,
                            correlated ? ImmutableSet.copyOf(filter.getVariablesSet()) : ImmutableSet.of());
            call.transformTo(result);
            return;
        }
    }

    /** The SEMI or ANTI join of the filter's input with the sub-query's input, or null when it does not qualify. */
    private static RelNode join(LogicalFilter filter, RexSubQuery subQuery, JoinRelType type) {
        RelNode rel = subQuery.rel;
        while (rel instanceof LogicalProject project) {
            if (!RelOptUtil.getVariablesUsed(project).isEmpty()) {
                return null;
            }
            rel = project.getInput();
        }
        if (!(rel instanceof LogicalFilter inner) || !RelOptUtil.getVariablesUsed(inner.getInput()).isEmpty()
                || RexUtil.SubQueryFinder.find(inner.getCondition()) != null) {
            return null;
        }
        Set<CorrelationId> used = RelOptUtil.getVariablesUsed(inner);
        if (used.size() != 1 || !filter.getVariablesSet().containsAll(used)) {
            return null;
        }
        // Conjuncts on the sub-query's own columns filter its input; the correlated ones join.
        List<RexNode> local = new ArrayList<>();
        List<RexNode> correlated = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(inner.getCondition())) {
            (RexUtil.containsCorrelation(conjunct) ? correlated : local).add(conjunct);
        }
        RelNode right = local.isEmpty() ? inner.getInput()
                : LogicalFilter.create(inner.getInput(), RexUtil.composeConjunction(inner.getCluster().getRexBuilder(), local));
        int outerCount = filter.getInput().getRowType().getFieldCount();
        // The only correlation variable in the condition is this filter's: its fields become the
        // join's left columns, the sub-query's own columns move right of them.
        RexNode condition = RexUtil.composeConjunction(inner.getCluster().getRexBuilder(), correlated).accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return new RexInputRef(ref.getIndex() + outerCount, ref.getType());
            }

            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable) {
                    return new RexInputRef(access.getField().getIndex(), access.getType());
                }
                return super.visitFieldAccess(access);
            }
        });
        return LogicalJoin.create(filter.getInput(), right, List.of(), condition, Set.of(), type);
    }
}

package dev.columba.planner.rules;

import com.google.common.collect.ImmutableSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * {@code x NOT IN (SELECT k ...)} where neither x nor k can be NULL becomes an ANTI join on
 * {@code x = k} (a logical rewrite, before sub-queries are removed in general).
 *
 * <p>NOT IN differs from NOT EXISTS only through NULLs: a NULL x, or a NULL among the k, makes the
 * comparison UNKNOWN and drops the row. Calcite's general path therefore joins the outer rows with
 * {@code COUNT(*)} and {@code COUNT(k)} of the sub-query (a cross join), LEFT joins them with its
 * distinct values, and filters on {@code c = 0 OR (i IS NULL AND ck >= c)}. Where the types say
 * that no NULL can occur on either side, that is NOT EXISTS: TPC-H Q16's {@code ps_suppkey NOT IN
 * (SELECT s_suppkey FROM supplier WHERE s_comment LIKE '%Customer%Complaints%')}, both keys NOT
 * NULL, copied 30,000 part rows through the cross join and evaluated the OR on each joined row.
 *
 * <pre>
 * before: LogicalFilter(condition=[AND(&gt;($2, 0), NOT(IN($1, {
 *             LogicalProject(k=[$0]) LogicalFilter(...) LogicalTableScan(table=[[s]])})))])
 *           R
 * after:  LogicalFilter(condition=[&gt;($2, 0)])
 *           LogicalJoin(condition=[=($1, $k)], joinType=[anti])
 *             R
 *             LogicalProject(k=[$0]) LogicalFilter(...) LogicalTableScan(table=[[s]])
 * </pre>
 * Fires for the first conjunct {@code NOT(IN(...))} of a filter whose sub-query is not correlated
 * and whose compared values, on both sides, are of NOT NULL types; anything else (a nullable key,
 * a NOT IN under OR, a correlated sub-query) is left to the general path.
 */
public final class NotInAntiJoinRule extends RelRule<RuleConfig> {
    private NotInAntiJoinRule(RuleConfig config) {
        super(config);
    }

    public static NotInAntiJoinRule create() {
        return (NotInAntiJoinRule) RuleConfig.of("NotInAntiJoinRule",
                b -> b.operand(LogicalFilter.class)
                        .predicate(filter -> RexUtil.SubQueryFinder.find(filter.getCondition()) != null).anyInputs(),
                NotInAntiJoinRule::new).toRule();
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalFilter filter = call.rel(0);
        List<RexNode> conjuncts = RelOptUtil.conjunctions(filter.getCondition());
        for (int index = 0; index < conjuncts.size(); index++) {
            if (!(conjuncts.get(index) instanceof RexCall not) || not.getKind() != SqlKind.NOT
                    || !(not.getOperands().getFirst() instanceof RexSubQuery subQuery) || !qualifies(subQuery)) {
                continue;
            }
            RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
            int outerCount = filter.getInput().getRowType().getFieldCount();
            List<RelDataTypeField> keys = subQuery.rel.getRowType().getFieldList();
            List<RexNode> equalities = new ArrayList<>();
            for (int key = 0; key < keys.size(); key++) {
                equalities.add(rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, subQuery.getOperands().get(key),
                        new RexInputRef(outerCount + key, keys.get(key).getType())));
            }
            RelNode joined = LogicalJoin.create(filter.getInput(), subQuery.rel, List.of(),
                    RexUtil.composeConjunction(rexBuilder, equalities), Set.of(), JoinRelType.ANTI);
            List<RexNode> rest = new ArrayList<>(conjuncts);
            rest.remove(index);
            RexNode remaining = RexUtil.composeConjunction(rexBuilder, rest);
            // The ANTI join keeps the filter input's columns: the rest of the condition reads them unchanged.
            boolean subQueries = RexUtil.SubQueryFinder.find(remaining) != null;
            call.transformTo(remaining.isAlwaysTrue() ? joined
                    : LogicalFilter.create(joined, remaining,
                            subQueries ? ImmutableSet.copyOf(filter.getVariablesSet()) : ImmutableSet.of()));
            return;
        }
    }

    /** An uncorrelated IN whose compared values cannot be NULL on either side. */
    private static boolean qualifies(RexSubQuery subQuery) {
        if (subQuery.getKind() != SqlKind.IN || !RelOptUtil.getVariablesUsed(subQuery.rel).isEmpty()) {
            return false;
        }
        for (RexNode operand : subQuery.getOperands()) {
            if (operand.getType().isNullable() || RexUtil.containsCorrelation(operand)) {
                return false;
            }
        }
        for (RelDataTypeField key : subQuery.rel.getRowType().getFieldList()) {
            if (key.getType().isNullable()) {
                return false;
            }
        }
        return true;
    }
}

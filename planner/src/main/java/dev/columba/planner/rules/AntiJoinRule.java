package dev.columba.planner.rules;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * A LEFT join whose rows are kept only where a column that the right input never leaves NULL is
 * NULL becomes an ANTI join (a logical rewrite): those are exactly the left rows without a match,
 * once each, their right columns all NULL. That is how NOT EXISTS reaches the planner after
 * decorrelation (TPC-H Q22, Q21: a LEFT join to the distinct correlation keys and a {@code TRUE}
 * marker, then {@code IS NULL(marker)}), and how people write it by hand. As an ANTI join it can be
 * hashed on the smaller side (the preserved left side when that is smaller, core's RIGHT_ANTI), and
 * the build's keys can filter the other side's scan.
 *
 * <pre>
 * before: LogicalFilter(condition=[AND(IS NULL($4), &gt;($1, 0))])
 *           LogicalJoin(condition=[=($0, $3)], joinType=[left])        ($4 is TRUE NOT NULL in the right input)
 * after:  LogicalProject($0, $1, $2, null:INTEGER, null:BOOLEAN)
 *           LogicalFilter(condition=[&gt;($1, 0)])
 *             LogicalJoin(condition=[=($0, $3)], joinType=[anti])
 * </pre>
 * The semantics are NOT EXISTS's: a left row whose condition is never TRUE (a NULL key matches
 * nothing) is kept. Does not fire when the IS NULL is not a conjunct of the filter (NOT IN's
 * {@code OR(=(c, 0), AND(IS NULL(i), ...))} keeps its LEFT join), when the column is nullable in the
 * right input, or when another conjunct reads a right column.
 */
public final class AntiJoinRule extends RelRule<RuleConfig> {
    private AntiJoinRule(RuleConfig config) {
        super(config);
    }

    public static AntiJoinRule create() {
        return (AntiJoinRule) RuleConfig.of("AntiJoinRule",
                b -> b.operand(LogicalFilter.class).oneInput(
                        j -> j.operand(LogicalJoin.class).predicate(join -> join.getJoinType() == JoinRelType.LEFT).anyInputs()),
                AntiJoinRule::new).toRule();
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalFilter filter = call.rel(0);
        LogicalJoin join = call.rel(1);
        int leftCount = join.getLeft().getRowType().getFieldCount();
        List<RelDataTypeField> rightFields = join.getRight().getRowType().getFieldList();
        List<RexNode> conjuncts = RelOptUtil.conjunctions(filter.getCondition());
        RexNode noMatch = null;
        for (RexNode conjunct : conjuncts) {
            if (conjunct.isA(SqlKind.IS_NULL) && ((RexCall) conjunct).getOperands().getFirst() instanceof RexInputRef reference
                    && reference.getIndex() >= leftCount
                    && !rightFields.get(reference.getIndex() - leftCount).getType().isNullable()) {
                noMatch = conjunct;
                break;
            }
        }
        if (noMatch == null) {
            return;
        }
        List<RexNode> rest = new ArrayList<>(conjuncts);
        rest.remove(noMatch);
        ImmutableBitSet leftColumns = ImmutableBitSet.range(leftCount);
        for (RexNode conjunct : rest) {
            if (!leftColumns.contains(RelOptUtil.InputFinder.bits(conjunct))) {
                return;
            }
        }
        RelBuilder builder = call.builder();
        builder.push(join.getLeft()).push(join.getRight()).join(JoinRelType.ANTI, join.getCondition());
        if (!rest.isEmpty()) {
            builder.filter(rest);
        }
        // The filter's rows as they were: the left columns, then the right ones, all NULL.
        RexBuilder rexBuilder = join.getCluster().getRexBuilder();
        List<RexNode> columns = new ArrayList<>();
        List<RelDataTypeField> fields = filter.getRowType().getFieldList();
        for (int column = 0; column < fields.size(); column++) {
            columns.add(column < leftCount ? builder.field(column) : rexBuilder.makeNullLiteral(fields.get(column).getType()));
        }
        builder.project(columns, filter.getRowType().getFieldNames(), true);
        call.transformTo(builder.build());
    }
}

package dev.columba.planner.rules;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * In an inner join without equal keys (a nested-loop join, which evaluates its condition on every
 * pair of rows), an expression of one input's columns alone is computed by a projection on that
 * input, once per row of it, instead of once per pair. TPC-H Q11's {@code HAVING SUM(x) > (SELECT
 * SUM(x) * 0.0001 ...)} becomes a join of the groups with the one-row total whose condition
 * multiplied the total (as DECIMAL(38, 5)) again for each of its 30,000 pairs; now the total's
 * projection multiplies it once.
 *
 * <pre>
 * before: LogicalJoin(condition=[&gt;(CAST($1):DECIMAL(38, 5), CAST(*($2, 0.0001)):DECIMAL(38, 5))], joinType=[inner])
 *           left: ($0, $1)   right: ($0)
 * after:  LogicalProject($0, $1, $3)
 *           LogicalJoin(condition=[&gt;($2, $4)], joinType=[inner])
 *             LogicalProject($0, $1, CAST($1):DECIMAL(38, 5))
 *             LogicalProject($0, CAST(*($0, 0.0001)):DECIMAL(38, 5))
 * </pre>
 * Only deterministic expressions move, and only the largest ones of one side: an expression of
 * both sides stays, its one-sided operands move. A BOOLEAN expression of one side stays where it
 * is: it is a predicate on that input, which the filter rules push down as a filter. Nothing moves
 * out of an operand that is evaluated only for some pairs (a CASE branch, an operand of COALESCE,
 * NULLIF, or of an AND or OR inside a conjunct): below the join it would be evaluated for every
 * row, and an error it raises (a division by zero) would end statements that never raised it. Joins with
 * equal keys are left alone: their condition is checked on candidate pairs only, which may be
 * fewer than an input's rows (and Calcite's JoinPushExpressionsRule already moves the keys'
 * expressions).
 */
public final class JoinSideExpressionsRule extends RelRule<RuleConfig> {
    private JoinSideExpressionsRule(RuleConfig config) {
        super(config);
    }

    public static JoinSideExpressionsRule create() {
        return (JoinSideExpressionsRule) RuleConfig.of("JoinSideExpressionsRule",
                b -> b.operand(LogicalJoin.class)
                        .predicate(join -> join.getJoinType() == JoinRelType.INNER && join.analyzeCondition().pairs().isEmpty())
                        .anyInputs(),
                JoinSideExpressionsRule::new).toRule();
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalJoin join = call.rel(0);
        int leftCount = join.getLeft().getRowType().getFieldCount();
        int rightCount = join.getRight().getRowType().getFieldCount();
        // Per side, the expressions to compute below the join (over the join's columns), each once.
        Map<String, RexNode> leftExpressions = new LinkedHashMap<>();
        Map<String, RexNode> rightExpressions = new LinkedHashMap<>();
        // The condition's conjuncts are visited one by one: SQL leaves their order open, so any may be
        // evaluated first; inside them, operands that are evaluated conditionally stay where they are.
        List<RexNode> conjuncts = RelOptUtil.conjunctions(join.getCondition());
        OneSided collect = new OneSided(leftCount) {
            @Override
            RexNode replace(RexCall expression, boolean left) {
                (left ? leftExpressions : rightExpressions).putIfAbsent(expression.toString(), expression);
                return expression;
            }
        };
        conjuncts.forEach(conjunct -> conjunct.accept(collect));
        if (leftExpressions.isEmpty() && rightExpressions.isEmpty()) {
            return;
        }
        List<String> leftKeys = new ArrayList<>(leftExpressions.keySet());
        List<String> rightKeys = new ArrayList<>(rightExpressions.keySet());
        int leftWidth = leftCount + leftKeys.size();
        OneSided rewrite = new OneSided(leftCount) {
            @Override
            RexNode replace(RexCall expression, boolean left) {
                int column = left ? leftCount + leftKeys.indexOf(expression.toString())
                        : leftWidth + rightCount + rightKeys.indexOf(expression.toString());
                return new RexInputRef(column, expression.getType());
            }

            @Override
            public RexNode visitInputRef(RexInputRef reference) {
                return reference.getIndex() < leftCount ? reference
                        : new RexInputRef(reference.getIndex() + leftKeys.size(), reference.getType());
            }
        };
        RexNode condition = RexUtil.composeConjunction(join.getCluster().getRexBuilder(),
                conjuncts.stream().map(conjunct -> conjunct.accept(rewrite)).toList());
        RelBuilder builder = call.builder();
        builder.push(join.getLeft());
        builder.project(withExpressions(builder, new ArrayList<>(leftExpressions.values()), 0));
        builder.push(join.getRight());
        builder.project(withExpressions(builder, new ArrayList<>(rightExpressions.values()), -leftCount));
        builder.join(JoinRelType.INNER, condition);
        // The join's columns as they were: the left input's, then the right input's.
        List<RexNode> columns = new ArrayList<>();
        for (int column = 0; column < leftCount; column++) {
            columns.add(builder.field(column));
        }
        for (int column = 0; column < rightCount; column++) {
            columns.add(builder.field(leftWidth + column));
        }
        builder.project(columns, join.getRowType().getFieldNames(), true);
        call.transformTo(builder.build());
    }

    /** The input's columns, then {@code expressions} shifted by {@code shift} to read the input's columns. */
    private static List<RexNode> withExpressions(RelBuilder builder, List<RexNode> expressions, int shift) {
        List<RexNode> columns = new ArrayList<>(builder.fields());
        for (RexNode expression : expressions) {
            columns.add(RexUtil.shift(expression, shift));
        }
        return columns;
    }

    /**
     * Visits a join condition and hands each largest expression of one side's columns (deterministic,
     * not BOOLEAN, not a column alone) to {@link #replace}; other expressions are visited through.
     */
    private abstract static class OneSided extends RexShuttle {
        /** Calls that evaluate some operands only for some rows (AND and OR below the conjunction may short-circuit). */
        private static final Set<SqlKind> CONDITIONAL = EnumSet.of(SqlKind.CASE, SqlKind.COALESCE, SqlKind.NULLIF,
                SqlKind.AND, SqlKind.OR);

        private final int leftCount;

        OneSided(int leftCount) {
            this.leftCount = leftCount;
        }

        abstract RexNode replace(RexCall expression, boolean left);

        @Override
        public RexNode visitCall(RexCall call) {
            ImmutableBitSet columns = RelOptUtil.InputFinder.bits(call);
            boolean left = !columns.isEmpty() && columns.nextSetBit(leftCount) < 0;
            boolean right = !columns.isEmpty() && columns.nextSetBit(0) >= leftCount;
            if ((left || right) && RexUtil.isDeterministic(call)) {
                if (call.getType().getSqlTypeName() == SqlTypeName.BOOLEAN) {
                    return call;
                }
                return replace(call, left);
            }
            if (CONDITIONAL.contains(call.getKind())) {
                // CASE WHEN r.y <> 0 THEN l.x / r.y END: an operand moved below the join would be
                // evaluated for every row, where the condition may evaluate it for some pairs only.
                return call;
            }
            return super.visitCall(call);
        }
    }
}

package dev.columba.planner.rules;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.externalize.RelWriterImpl;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.Pair;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A join of a grouped aggregate with a total over the same rows computes the total from the
 * groups (a logical rewrite, right after decorrelation): TPC-H Q11 compares each part's value with
 * a fraction of the value of all parts, {@code HAVING SUM(x) > (SELECT SUM(x) * 0.0001 FROM <the
 * same FROM and WHERE>)}, and read partsupp, joined it to supplier and nation, and aggregated it
 * twice. The sum of the groups' sums is the total; the planner gives both readers of the grouped
 * aggregate one node, and execution computes it once behind a spool (execution.md, "Subplans read
 * twice are computed once").
 *
 * <pre>
 * before: LogicalJoin(condition=[&gt;($1, $2)])
 *           LogicalAggregate(group=[{0}], value=[SUM($1)])
 *             LogicalProject(ps_partkey=[$0], $f1=[*($3, $2)])
 *               X
 *           LogicalProject(EXPR$0=[*($0, 0.0001)])
 *             LogicalAggregate(group=[{}], $f0=[SUM($0)])
 *               LogicalProject($f0=[*($3, $2)])
 *                 X'                                   (X' equal to X, node by node)
 * after:  LogicalJoin(condition=[&gt;($1, $2)])
 *           LogicalAggregate(group=[{0}], value=[SUM($1)])           (one node, read twice)
 *             ...
 *           LogicalProject(EXPR$0=[*($0, 0.0001)])
 *             LogicalProject($f0=[CAST($0):DECIMAL(35, 2)])          (the sum of sums is typed wider)
 *               LogicalAggregate(group=[{}], agg#0=[SUM($1)])
 *                 LogicalAggregate(group=[{0}], value=[SUM($1)])     (the same node)
 * </pre>
 *
 * Fires when the join's right input is projections over an aggregate without GROUP BY whose every
 * call is SUM, MIN or MAX (not DISTINCT, no FILTER) of an expression the left input's grouped
 * aggregate (directly, or under projections) also computes with the same function, over an input
 * equal to its own. SUM only of exact types (integers, DECIMAL): a sum of sums adds the same values
 * in another order, which is exact for them and not for DOUBLE. The total of the groups' results is
 * the total of all rows: NULLs are skipped by both, a group of only NULLs has a NULL result that is
 * skipped in turn, and no rows give NULL either way. Does not fire for DISTINCT, COUNT (its total
 * would be a SUM of counts, which is NULL instead of 0 over no rows) or for grouping sets.
 */
public final class TotalFromGroupsRule extends RelRule<RuleConfig> {
    private TotalFromGroupsRule(RuleConfig config) {
        super(config);
    }

    public static TotalFromGroupsRule create() {
        return (TotalFromGroupsRule) RuleConfig.of("TotalFromGroupsRule",
                b -> b.operand(LogicalJoin.class).anyInputs(), TotalFromGroupsRule::new).toRule();
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Join join = call.rel(0);
        Aggregate groups = aggregateBelowProjections(join.getLeft());
        List<Project> totalProjections = new ArrayList<>();
        RelNode node = strip(join.getRight());
        while (node instanceof LogicalProject project) {
            totalProjections.add(project);
            node = strip(project.getInput());
        }
        if (groups == null || !(node instanceof LogicalAggregate total) || !total.getGroupSet().isEmpty()
                || groups.getGroupType() != Aggregate.Group.SIMPLE || total.getGroupType() != Aggregate.Group.SIMPLE
                || groups.getGroupSet().isEmpty()) {
            return;
        }
        if (!sameRows(rowsOf(groups), rowsOf(total))) {
            return;
        }
        RelBuilder builder = call.builder();
        builder.push(groups);
        List<RelBuilder.AggCall> totals = new ArrayList<>();
        for (AggregateCall totalCall : total.getAggCallList()) {
            int groupsCall = matchingCall(groups, total, totalCall);
            if (groupsCall < 0) {
                return;
            }
            RexNode groupResult = builder.field(groups.getGroupCount() + groupsCall);
            totals.add(switch (totalCall.getAggregation().getKind()) {
                case SUM -> builder.sum(groupResult);
                case MIN -> builder.min(groupResult);
                default -> builder.max(groupResult);
            });
        }
        builder.aggregate(builder.groupKey(), totals);
        // A sum of sums is typed wider than the sum (DECIMAL(32, 2) summed is DECIMAL(38, 2)): cast
        // back to the total's type, which the rows above expect. A total that does not fit fails in
        // the cast, as it failed in the sum before.
        RexBuilder rexBuilder = join.getCluster().getRexBuilder();
        List<RexNode> columns = new ArrayList<>();
        for (int column = 0; column < totals.size(); column++) {
            RelDataType type = total.getRowType().getFieldList().get(column).getType();
            RexNode value = builder.field(column);
            columns.add(value.getType().equals(type) ? value : rexBuilder.makeCast(type, value, true, false));
        }
        builder.project(columns, total.getRowType().getFieldNames(), true);
        RelNode fromGroups = builder.build();
        if (!RelOptUtil.areRowTypesEqual(fromGroups.getRowType(), total.getRowType(), true)) {
            return;
        }
        RelNode right = fromGroups;
        for (int index = totalProjections.size() - 1; index >= 0; index--) {
            Project project = totalProjections.get(index);
            right = project.copy(project.getTraitSet(), List.of(right));
        }
        call.transformTo(join.copy(join.getTraitSet(), join.getCondition(), join.getLeft(), right, join.getJoinType(),
                join.isSemiJoinDone()));
    }

    /** The aggregate at {@code node} or under its projections, or null. */
    private static Aggregate aggregateBelowProjections(RelNode node) {
        RelNode current = strip(node);
        while (current instanceof LogicalProject project) {
            current = strip(project.getInput());
        }
        return current instanceof LogicalAggregate aggregate ? aggregate : null;
    }

    /** An aggregate's rows before its projection: the input of a projection below it, else its input. */
    private static RelNode rowsOf(Aggregate aggregate) {
        RelNode input = strip(aggregate.getInput());
        return input instanceof LogicalProject project ? strip(project.getInput()) : input;
    }

    /** The expression an aggregate call's single argument reads, over {@link #rowsOf}. */
    private static RexNode argument(Aggregate aggregate, AggregateCall call) {
        int argument = call.getArgList().getFirst();
        RelNode input = strip(aggregate.getInput());
        return input instanceof LogicalProject project ? project.getProjects().get(argument)
                : RexInputRef.of(argument, input.getRowType());
    }

    /**
     * The index of the call of {@code groups} that computes {@code totalCall}'s function of the
     * same expression, or -1 (also when the call is not one this rule combines).
     */
    private static int matchingCall(Aggregate groups, Aggregate total, AggregateCall totalCall) {
        SqlKind kind = totalCall.getAggregation().getKind();
        if (totalCall.isDistinct() || totalCall.filterArg >= 0 || totalCall.getArgList().size() != 1
                || !totalCall.collation.getFieldCollations().isEmpty()
                || (kind != SqlKind.SUM && kind != SqlKind.MIN && kind != SqlKind.MAX)
                || (kind == SqlKind.SUM && !exact(totalCall.getType().getSqlTypeName()))) {
            return -1;
        }
        RexNode expression = argument(total, totalCall);
        List<AggregateCall> calls = groups.getAggCallList();
        for (int index = 0; index < calls.size(); index++) {
            AggregateCall candidate = calls.get(index);
            if (candidate.getAggregation().getKind() == kind && !candidate.isDistinct() && candidate.filterArg < 0
                    && candidate.getArgList().size() == 1
                    && SqlTypeUtil.equalSansNullability(candidate.getType(), totalCall.getType())
                    && argument(groups, candidate).equals(expression)) {
                return index;
            }
        }
        return -1;
    }

    private static boolean exact(SqlTypeName type) {
        return switch (type) {
            case TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL -> true;
            default -> false;
        };
    }

    /**
     * Whether two plans compute the same rows: node by node the same kind of node with the same
     * row type and the same attributes (tables, conditions, expressions), over inputs that are
     * the same in turn. The Hep planner here keeps equal subtrees apart, so digests (which name
     * their inputs' ids) cannot tell.
     */
    private static boolean sameRows(RelNode first, RelNode second) {
        RelNode left = strip(first);
        RelNode right = strip(second);
        if (left == right) {
            return true;
        }
        if (left.getClass() != right.getClass() || left.getInputs().size() != right.getInputs().size()
                || !left.getRowType().equals(right.getRowType()) || !attributes(left).equals(attributes(right))) {
            return false;
        }
        for (int input = 0; input < left.getInputs().size(); input++) {
            if (!sameRows(left.getInput(input), right.getInput(input))) {
                return false;
            }
        }
        return true;
    }

    /** A node's attributes as EXPLAIN prints them, its inputs left out. */
    private static List<String> attributes(RelNode node) {
        List<String> attributes = new ArrayList<>();
        RelWriterImpl writer = new RelWriterImpl(new PrintWriter(new StringWriter()), SqlExplainLevel.DIGEST_ATTRIBUTES, false) {
            @Override
            protected void explain_(RelNode rel, List<Pair<String, @Nullable Object>> values) {
                for (Pair<String, @Nullable Object> value : values) {
                    if (!(value.right instanceof RelNode)) {
                        attributes.add(value.left + "=" + value.right);
                    }
                }
            }
        };
        node.explain(writer);
        return attributes;
    }

    /** A Hep vertex's current node. */
    private static RelNode strip(RelNode node) {
        return node.stripped();
    }
}

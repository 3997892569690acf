package dev.columba.planner.rules;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * An aggregate over several grouping sets (GROUPING SETS, ROLLUP, CUBE) becomes a UNION ALL of
 * one plain aggregate per grouping set, each under a projection that puts NULL in the key columns
 * its set does not group by and the constant value of {@code GROUPING(...)} / {@code GROUPING_ID(...)}
 * for its set (bit i, counted from the last argument, is 1 where argument i is not grouped by),
 * so that every branch has the aggregate's row type. The input is read once per grouping set.
 *
 * <pre>
 * before: LogicalAggregate(group=[{0, 1}], groups=[[{0, 1}, {0}, {}]], c=[COUNT()], g=[GROUPING($1)])
 * after:  LogicalUnion(all=[true])
 *           LogicalProject($0, $1, $2, 0)        LogicalAggregate(group=[{0, 1}], c=[COUNT()])
 *           LogicalProject($0, null, $1, 1)      LogicalAggregate(group=[{0}], c=[COUNT()])
 *           LogicalProject(null, null, $0, 1)    LogicalAggregate(group=[{}], c=[COUNT()])
 * </pre>
 * Does not fire for a plain aggregate, or one with {@code GROUP_ID()} (Calcite expands repeated
 * grouping sets, the only ones where it is not 0, itself).
 */
public final class GroupingSetsRule extends RelRule<RuleConfig> {
    private GroupingSetsRule(RuleConfig config) {
        super(config);
    }

    public static GroupingSetsRule create() {
        return (GroupingSetsRule) RuleConfig.of("GroupingSetsRule",
                b -> b.operand(LogicalAggregate.class).predicate(GroupingSetsRule::expandable).anyInputs(),
                GroupingSetsRule::new).toRule();
    }

    private static boolean expandable(Aggregate aggregate) {
        return aggregate.getGroupType() != Aggregate.Group.SIMPLE
                && aggregate.getAggCallList().stream().noneMatch(call -> call.getAggregation().getKind() == SqlKind.GROUP_ID);
    }

    private static boolean isGrouping(AggregateCall call) {
        SqlKind kind = call.getAggregation().getKind();
        return kind == SqlKind.GROUPING || kind == SqlKind.GROUPING_ID;
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalAggregate aggregate = call.rel(0);
        RelBuilder builder = call.builder();
        RexBuilder rexBuilder = aggregate.getCluster().getRexBuilder();
        List<Integer> keys = aggregate.getGroupSet().asList();
        List<RelDataType> outputTypes = aggregate.getRowType().getFieldList().stream().map(field -> field.getType()).toList();
        List<String> outputNames = aggregate.getRowType().getFieldNames();
        for (ImmutableBitSet set : aggregate.getGroupSets()) {
            List<AggregateCall> calls = new ArrayList<>();
            for (AggregateCall aggregateCall : aggregate.getAggCallList()) {
                if (!isGrouping(aggregateCall)) {
                    calls.add(AggregateCall.create(aggregateCall.getParserPosition(), aggregateCall.getAggregation(),
                            aggregateCall.isDistinct(), aggregateCall.isApproximate(), aggregateCall.ignoreNulls(),
                            aggregateCall.rexList, aggregateCall.getArgList(), aggregateCall.filterArg, aggregateCall.distinctKeys,
                            aggregateCall.collation, set.cardinality(), aggregate.getInput(), null, aggregateCall.getName()));
                }
            }
            builder.push(LogicalAggregate.create(aggregate.getInput(), aggregate.getHints(), set, null, calls));
            List<Integer> setKeys = set.asList();
            List<RexNode> projections = new ArrayList<>();
            for (int key = 0; key < keys.size(); key++) {
                RelDataType type = outputTypes.get(key);
                int position = setKeys.indexOf(keys.get(key));
                projections.add(position < 0 ? rexBuilder.makeNullLiteral(type)
                        : rexBuilder.makeCast(type, builder.field(position), true, false));
            }
            int computed = setKeys.size();
            for (int index = 0; index < aggregate.getAggCallList().size(); index++) {
                AggregateCall aggregateCall = aggregate.getAggCallList().get(index);
                RelDataType type = outputTypes.get(keys.size() + index);
                if (isGrouping(aggregateCall)) {
                    long bits = 0;
                    for (int argument : aggregateCall.getArgList()) {
                        bits = bits << 1 | (set.get(argument) ? 0 : 1);
                    }
                    projections.add(rexBuilder.makeExactLiteral(java.math.BigDecimal.valueOf(bits), type));
                } else {
                    projections.add(rexBuilder.makeCast(type, builder.field(computed++), true, false));
                }
            }
            builder.project(projections, outputNames, true);
        }
        builder.union(true, aggregate.getGroupSets().size());
        call.transformTo(builder.build());
    }
}

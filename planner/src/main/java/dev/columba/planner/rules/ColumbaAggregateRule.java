package dev.columba.planner.rules;

import dev.columba.planner.rel.ColumbaAggregate;
import dev.columba.planner.rel.ColumbaRel;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalSort;

/**
 * A logical aggregate with one grouping set and COUNT/SUM/AVG/MIN/MAX/STRING_AGG (DISTINCT, FILTER
 * allowed) becomes Columba's hash aggregate; other functions do not convert. STRING_AGG WITHIN
 * GROUP (ORDER BY k) sorts the input by k first. GROUPING SETS, ROLLUP and CUBE
 * arrive here as a union of aggregates with one grouping set each ({@link GroupingSetsRule}).
 *
 * <pre>
 * before: LogicalAggregate(group=[{0}], c=[COUNT(DISTINCT $1)])   after: ColumbaAggregate(group=[{0}], c=[COUNT(DISTINCT $1)])
 * </pre>
 */
public final class ColumbaAggregateRule extends ConverterRule {
    public static final Config CONFIG = Config.INSTANCE
            .withConversion(LogicalAggregate.class, ColumbaAggregate::supported, Convention.NONE, ColumbaRel.CONVENTION,
                    "ColumbaAggregateRule")
            .withRuleFactory(ColumbaAggregateRule::new);

    private ColumbaAggregateRule(Config config) {
        super(config);
    }

    @Override
    public RelNode convert(RelNode rel) {
        LogicalAggregate aggregate = (LogicalAggregate) rel;
        RelNode logicalInput = aggregate.getInput();
        RelCollation withinGroup = ColumbaAggregate.withinGroup(aggregate);
        if (!withinGroup.getFieldCollations().isEmpty()) {
            // STRING_AGG ... WITHIN GROUP (ORDER BY ...): the rows sorted, so that each group takes
            // its values in that order (the aggregate then runs whole, never split).
            logicalInput = LogicalSort.create(logicalInput, withinGroup, null, null);
        }
        RelNode input = convert(logicalInput, logicalInput.getTraitSet().replace(ColumbaRel.CONVENTION));
        return new ColumbaAggregate(aggregate.getCluster(), aggregate.getTraitSet().replace(ColumbaRel.CONVENTION), input,
                aggregate.getGroupSet(), aggregate.getGroupSets(), aggregate.getAggCallList());
    }
}

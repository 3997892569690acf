package dev.columba.planner.rules;

import dev.columba.planner.rel.ColumbaFilter;
import dev.columba.planner.rel.ColumbaRel;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.logical.LogicalFilter;

/**
 * A logical filter becomes Columba's batch-mode filter.
 *
 * <pre>
 * before: LogicalFilter(condition=[&lt;($0, 27)])          after: ColumbaFilter(condition=[&lt;($0, 27)])
 *           LogicalTableScan(table=[[TestTable]])                 (input converted to COLUMBA)
 * </pre>
 */
public final class ColumbaFilterRule extends ConverterRule {
    public static final Config CONFIG = Config.INSTANCE
            .withConversion(LogicalFilter.class, Convention.NONE, ColumbaRel.CONVENTION, "ColumbaFilterRule")
            .withRuleFactory(ColumbaFilterRule::new);

    private ColumbaFilterRule(Config config) {
        super(config);
    }

    @Override
    public RelNode convert(RelNode rel) {
        LogicalFilter filter = (LogicalFilter) rel;
        RelNode input = convert(filter.getInput(), filter.getInput().getTraitSet().replace(ColumbaRel.CONVENTION));
        return new ColumbaFilter(filter.getCluster(), filter.getTraitSet().replace(ColumbaRel.CONVENTION), input,
                filter.getCondition());
    }
}

package dev.columba.planner.rules;

import dev.columba.planner.rel.ColumbaRel;
import dev.columba.planner.rel.ColumbaValues;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.logical.LogicalValues;

/**
 * Literal rows become Columba's values node.
 *
 * <pre>
 * before: LogicalValues(tuples=[[{ 1, 'a' }]])   after: ColumbaValues(tuples=[[{ 1, 'a' }]])
 * </pre>
 */
public final class ColumbaValuesRule extends ConverterRule {
    public static final Config CONFIG = Config.INSTANCE
            .withConversion(LogicalValues.class, Convention.NONE, ColumbaRel.CONVENTION, "ColumbaValuesRule")
            .withRuleFactory(ColumbaValuesRule::new);

    private ColumbaValuesRule(Config config) {
        super(config);
    }

    @Override
    public RelNode convert(RelNode rel) {
        LogicalValues values = (LogicalValues) rel;
        return new ColumbaValues(values.getCluster(), values.getRowType(), values.getTuples(),
                values.getTraitSet().replace(ColumbaRel.CONVENTION));
    }
}

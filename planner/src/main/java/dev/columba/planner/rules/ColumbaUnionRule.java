package dev.columba.planner.rules;

import dev.columba.planner.rel.ColumbaRel;
import dev.columba.planner.rel.ColumbaUnion;
import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.logical.LogicalUnion;

/**
 * UNION [ALL] becomes Columba's union (UNION ALL, or its distinct rows).
 *
 * <pre>
 * before: LogicalUnion(all=[false])   after: ColumbaUnion(all=[false]) = HashAggregate(distinct) over UnionAll
 * </pre>
 */
public final class ColumbaUnionRule extends ConverterRule {
    public static final Config CONFIG = Config.INSTANCE
            .withConversion(LogicalUnion.class, Convention.NONE, ColumbaRel.CONVENTION, "ColumbaUnionRule")
            .withRuleFactory(ColumbaUnionRule::new);

    private ColumbaUnionRule(Config config) {
        super(config);
    }

    @Override
    public RelNode convert(RelNode rel) {
        LogicalUnion union = (LogicalUnion) rel;
        List<RelNode> inputs = union.getInputs().stream()
                .map(input -> convert(input, input.getTraitSet().replace(ColumbaRel.CONVENTION))).toList();
        return new ColumbaUnion(union.getCluster(), union.getTraitSet().replace(ColumbaRel.CONVENTION), inputs, union.all);
    }
}

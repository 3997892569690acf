package dev.columba.planner.rules;

import dev.columba.planner.rel.ColumbaRel;
import dev.columba.planner.rel.ColumbaSort;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.logical.LogicalSort;

/**
 * ORDER BY / OFFSET / FETCH become Columba's sort node (a sort, a top-N or a limit).
 *
 * <pre>
 * before: LogicalSort(sort0=[$0], dir0=[DESC], fetch=[10])   after: ColumbaSort(sort0=[$0], dir0=[DESC], fetch=[10]) = TopN
 * </pre>
 */
public final class ColumbaSortRule extends ConverterRule {
    public static final Config CONFIG = Config.INSTANCE
            .withConversion(LogicalSort.class, Convention.NONE, ColumbaRel.CONVENTION, "ColumbaSortRule")
            .withRuleFactory(ColumbaSortRule::new);

    private ColumbaSortRule(Config config) {
        super(config);
    }

    @Override
    public RelNode convert(RelNode rel) {
        LogicalSort sort = (LogicalSort) rel;
        RelNode input = convert(sort.getInput(), sort.getInput().getTraitSet().replace(ColumbaRel.CONVENTION));
        return new ColumbaSort(sort.getCluster(), sort.getTraitSet().replace(ColumbaRel.CONVENTION), input,
                sort.getCollation(), sort.offset, sort.fetch);
    }
}

package dev.columba.planner.rules;

import dev.columba.planner.rel.ColumbaRel;
import dev.columba.planner.rel.ColumbaTableModify;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.logical.LogicalTableModify;

/**
 * INSERT, UPDATE, DELETE and MERGE become Columba's table-modify node (a MERGE's input is the query
 * {@code MergeRewrite} made of it).
 *
 * <pre>
 * before: LogicalTableModify(table=[[t]], operation=[INSERT])   after: ColumbaTableModify(table=[[t]], operation=[INSERT])
 * </pre>
 */
public final class ColumbaTableModifyRule extends ConverterRule {
    public static final Config CONFIG = Config.INSTANCE
            .withConversion(LogicalTableModify.class, modify -> modify.isInsert() || modify.isUpdate() || modify.isDelete() || modify.isMerge(),
                    Convention.NONE, ColumbaRel.CONVENTION, "ColumbaTableModifyRule")
            .withRuleFactory(ColumbaTableModifyRule::new);

    private ColumbaTableModifyRule(Config config) {
        super(config);
    }

    @Override
    public RelNode convert(RelNode rel) {
        LogicalTableModify modify = (LogicalTableModify) rel;
        RelNode input = convert(modify.getInput(), modify.getInput().getTraitSet().replace(ColumbaRel.CONVENTION));
        return new ColumbaTableModify(modify.getCluster(), modify.getTraitSet().replace(ColumbaRel.CONVENTION),
                modify.getTable(), modify.getCatalogReader(), input, modify.getOperation(), modify.getUpdateColumnList(),
                modify.getSourceExpressionList(), modify.isFlattened());
    }
}

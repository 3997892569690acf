package dev.columba.planner.rules;

import dev.columba.planner.rel.ColumbaRel;
import dev.columba.planner.rel.ColumbaTableFunctionScan;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.logical.LogicalTableFunctionScan;

/**
 * A call of generate_series in FROM becomes Columba's table function scan; other table functions
 * have no physical node (the planner names them as unsupported before optimizing).
 *
 * <pre>
 * before: LogicalTableFunctionScan(invocation=[generate_series(1, 10)])
 * after:  ColumbaTableFunctionScan(invocation=[generate_series(1, 10)])
 * </pre>
 */
public final class ColumbaTableFunctionScanRule extends ConverterRule {
    public static final Config CONFIG = Config.INSTANCE
            .withConversion(LogicalTableFunctionScan.class, ColumbaTableFunctionScan::runs,
                    Convention.NONE, ColumbaRel.CONVENTION, "ColumbaTableFunctionScanRule")
            .withRuleFactory(ColumbaTableFunctionScanRule::new);

    private ColumbaTableFunctionScanRule(Config config) {
        super(config);
    }

    @Override
    public RelNode convert(RelNode rel) {
        LogicalTableFunctionScan scan = (LogicalTableFunctionScan) rel;
        return new ColumbaTableFunctionScan(scan.getCluster(), scan.getTraitSet().replace(ColumbaRel.CONVENTION),
                scan.getCall(), scan.getRowType());
    }
}

package dev.columba.planner.rules;

import dev.columba.planner.rel.ColumbaColumnstoreScan;
import dev.columba.planner.rel.ColumbaRel;
import dev.columba.planner.rel.ColumbaRowstoreScan;
import dev.columba.planner.rel.ColumbaSystemViewScan;
import dev.columba.planner.schema.ColumbaTable;
import dev.columba.planner.schema.ColumnstoreTableAdapter;
import dev.columba.planner.schema.RowstoreTable;
import dev.columba.planner.schema.SystemView;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.logical.LogicalTableScan;

/**
 * A table scan becomes the scan its storage offers: a rowstore scan (clustered: index order;
 * heap: allocation order), the batch-mode columnstore scan, or a system view's rows. Later rules
 * push ranges, filters and projections into them.
 *
 * <pre>
 * before: LogicalTableScan(table=[[TestTable]])   after: ColumbaRowstoreScan(table=[[TestTable]], projection=[0..5])
 * </pre>
 */
public final class ColumbaTableScanRule extends ConverterRule {
    public static final Config CONFIG = Config.INSTANCE
            .withConversion(LogicalTableScan.class, scan -> scan.getTable().unwrap(ColumbaTable.class) != null,
                    Convention.NONE, ColumbaRel.CONVENTION, "ColumbaTableScanRule")
            .withRuleFactory(ColumbaTableScanRule::new);

    private ColumbaTableScanRule(Config config) {
        super(config);
    }

    @Override
    public RelNode convert(RelNode rel) {
        LogicalTableScan scan = (LogicalTableScan) rel;
        return switch (scan.getTable().unwrap(ColumbaTable.class)) {
            case RowstoreTable ignored -> ColumbaRowstoreScan.of(scan.getCluster(), scan.getTable());
            case ColumnstoreTableAdapter ignored -> ColumbaColumnstoreScan.of(scan.getCluster(), scan.getTable());
            case SystemView ignored -> new ColumbaSystemViewScan(scan.getCluster(),
                    scan.getTraitSet().replace(ColumbaRel.CONVENTION), scan.getTable());
        };
    }
}

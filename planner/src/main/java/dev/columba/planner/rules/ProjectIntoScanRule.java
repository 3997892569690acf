package dev.columba.planner.rules;

import dev.columba.planner.rel.ColumbaColumnstoreScan;
import dev.columba.planner.rel.ColumbaProject;
import dev.columba.planner.rel.ColumbaRowstoreScan;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Pushes the columns a projection uses into the scan below it, so a rowstore scan decodes and a
 * columnstore scan reads (segment by segment) only those. The projection stays unless it only
 * picked columns in scan order.
 *
 * <pre>
 * before: ColumbaProject(NAME=[$3], x=[+($0, 1)])
 *           ColumbaColumnstoreScan(table=[[t]], projection=[0, 1, 2, 3, 4, 5])
 * after:  ColumbaProject(NAME=[$1], x=[+($0, 1)])
 *           ColumbaColumnstoreScan(table=[[t]], projection=[0, 3])
 * </pre>
 * Does not fire when the projection uses every column of the scan.
 */
public final class ProjectIntoScanRule extends RelRule<RuleConfig> {
    private ProjectIntoScanRule(RuleConfig config) {
        super(config);
    }

    public static ProjectIntoScanRule create() {
        return (ProjectIntoScanRule) RuleConfig.of("ProjectIntoScanRule",
                b -> b.operand(ColumbaProject.class).oneInput(b2 -> b2.operand(TableScan.class)
                        .predicate(scan -> scan instanceof ColumbaRowstoreScan || scan instanceof ColumbaColumnstoreScan)
                        .noInputs()),
                ProjectIntoScanRule::new).toRule();
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        ColumbaProject project = call.rel(0);
        TableScan scan = call.rel(1);
        ImmutableBitSet used = RelOptUtil.InputFinder.bits(project.getProjects(), null);
        int width = scan.getRowType().getFieldCount();
        if (used.cardinality() == width || used.isEmpty()) {
            return;
        }
        int[] current = scan instanceof ColumbaRowstoreScan rowstore ? rowstore.projection()
                : ((ColumbaColumnstoreScan) scan).projection();
        List<Integer> kept = used.asList();
        int[] narrowed = kept.stream().mapToInt(index -> current[index]).toArray();
        RelNode newScan = scan instanceof ColumbaRowstoreScan rowstore ? rowstore.withProjection(narrowed)
                : ((ColumbaColumnstoreScan) scan).withProjection(narrowed);
        List<RexNode> remapped = new ArrayList<>();
        for (RexNode expression : project.getProjects()) {
            remapped.add(expression.accept(new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef reference) {
                    return new RexInputRef(kept.indexOf(reference.getIndex()), reference.getType());
                }
            }));
        }
        boolean identity = remapped.size() == kept.size();
        for (int index = 0; identity && index < remapped.size(); index++) {
            identity = remapped.get(index) instanceof RexInputRef reference && reference.getIndex() == index;
        }
        if (identity) {
            call.transformTo(newScan);
        } else {
            call.transformTo(project.copy(project.getTraitSet(), newScan, remapped, project.getRowType()));
        }
    }
}

package dev.columba.planner.rules;

import dev.columba.planner.rel.ColumbaColumnstoreScan;
import dev.columba.planner.rel.ColumbaFilter;
import dev.columba.planner.rel.ColumbaProject;
import dev.columba.planner.rel.ColumbaRowstoreScan;
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
 * Pushes the columns a projection and the filter below it use into the scan under both (filters
 * are pushed below projections earlier, so this is the usual shape of {@code SELECT a FROM t WHERE
 * b = 1}).
 *
 * <pre>
 * before: ColumbaProject(code=[$1])                   after: ColumbaProject(code=[$0])
 *           ColumbaFilter(condition=[LIKE($1, 'C%')])        ColumbaFilter(condition=[LIKE($0, 'C%')])
 *             ColumbaColumnstoreScan(projection=[0..3])        ColumbaColumnstoreScan(projection=[1])
 * </pre>
 * Does not fire when the two together use every column of the scan.
 */
public final class ProjectFilterIntoScanRule extends RelRule<RuleConfig> {
    private ProjectFilterIntoScanRule(RuleConfig config) {
        super(config);
    }

    public static ProjectFilterIntoScanRule create() {
        return (ProjectFilterIntoScanRule) RuleConfig.of("ProjectFilterIntoScanRule",
                b -> b.operand(ColumbaProject.class).oneInput(b2 -> b2.operand(ColumbaFilter.class)
                        .oneInput(b3 -> b3.operand(TableScan.class)
                                .predicate(scan -> scan instanceof ColumbaRowstoreScan || scan instanceof ColumbaColumnstoreScan)
                                .noInputs())),
                ProjectFilterIntoScanRule::new).toRule();
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        ColumbaProject project = call.rel(0);
        ColumbaFilter filter = call.rel(1);
        TableScan scan = call.rel(2);
        ImmutableBitSet used = RelOptUtil.InputFinder.bits(project.getProjects(), filter.getCondition());
        if (used.cardinality() == scan.getRowType().getFieldCount() || used.isEmpty()) {
            return;
        }
        int[] current = scan instanceof ColumbaRowstoreScan rowstore ? rowstore.projection()
                : ((ColumbaColumnstoreScan) scan).projection();
        List<Integer> kept = used.asList();
        int[] narrowed = kept.stream().mapToInt(index -> current[index]).toArray();
        RelNode newScan = scan instanceof ColumbaRowstoreScan rowstore ? rowstore.withProjection(narrowed)
                : ((ColumbaColumnstoreScan) scan).withProjection(narrowed);
        RexShuttle remap = new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef reference) {
                return new RexInputRef(kept.indexOf(reference.getIndex()), reference.getType());
            }
        };
        RelNode newFilter = filter.copy(filter.getTraitSet(), newScan, filter.getCondition().accept(remap));
        List<RexNode> projects = project.getProjects().stream().map(expression -> expression.accept(remap)).toList();
        call.transformTo(project.copy(project.getTraitSet(), newFilter, projects, project.getRowType()));
    }
}

package dev.columba.planner.plan;

import dev.columba.planner.rel.ColumbaRel;
import dev.columba.planner.rel.ColumbaRowstoreScan;
import dev.columba.planner.rules.ColumbaFilterRule;
import dev.columba.planner.rules.ColumbaProjectRule;
import dev.columba.planner.rules.ColumbaTableModifyRule;
import dev.columba.planner.rules.ColumbaTableScanRule;
import dev.columba.planner.rules.ColumbaValuesRule;
import dev.columba.planner.rules.ProjectFilterIntoScanRule;
import dev.columba.planner.rules.ProjectIntoScanRule;
import dev.columba.planner.rules.RowstoreKeyRangeRule;
import dev.columba.planner.schema.RowstoreTable;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.rules.CoreRules;

/**
 * Trivial plans, as SQL Server calls them: a statement with one obvious plan skips cost-based
 * (Volcano) optimization and is converted straight into Columba's physical operators by a fixed
 * sequence of rules. The statements (after the heuristic rewrites):
 * <ul>
 * <li>a lookup by key: {@code [Project] Filter TableScan} of a rowstore table with a clustered
 *     key and no secondary index, whose filter gives the key a range (a point or a range seek);</li>
 * <li>{@code INSERT ... VALUES}: {@code TableModify(INSERT) [Project] Values};</li>
 * <li>UPDATE and DELETE by key: {@code TableModify [Project] Filter TableScan}, the scan as in the
 *     lookup.</li>
 * </ul>
 * With no secondary index and a range on the clustered key, the only choices Volcano has are the
 * ones these rules make (seek on the clustered key, residual filter, projection into the scan, an
 * identity projection removed), so
 * the plan is the one the full optimizer finds; {@code TrivialPlanTest} compares the two over a
 * corpus (trace flag 8757, setting {@code trivial_plans = off}, turns trivial plans off, as in SQL
 * Server). Anything else, or a conversion that does not end in physical operators throughout with
 * a key range on the scan, goes to the full optimizer.
 */
final class TrivialPlan {
    private TrivialPlan() {
    }

    private static final HepProgram PROGRAM = new HepProgramBuilder()
            .addMatchOrder(HepMatchOrder.BOTTOM_UP)
            .addRuleCollection(List.of(ColumbaTableScanRule.CONFIG.toRule(), ColumbaFilterRule.CONFIG.toRule(),
                    ColumbaProjectRule.CONFIG.toRule(), ColumbaValuesRule.CONFIG.toRule(),
                    ColumbaTableModifyRule.CONFIG.toRule()))
            .addRuleInstance(RowstoreKeyRangeRule.create())
            .addRuleInstance(ProjectIntoScanRule.create())
            .addRuleInstance(ProjectFilterIntoScanRule.create())
            .addRuleInstance(CoreRules.PROJECT_REMOVE)
            .build();

    /** The physical plan of a trivial statement; empty if {@code logical} is not one. */
    static Optional<RelNode> physical(RelNode logical) {
        boolean insertValues = logical instanceof TableModify modify && modify.isInsert()
                && values(modify.getInput());
        boolean byKey = logical instanceof TableModify modify ? (modify.isUpdate() || modify.isDelete())
                && lookup(modify.getInput()) : lookup(logical);
        if (!insertValues && !byKey) {
            return Optional.empty();
        }
        HepPlanner planner = new HepPlanner(PROGRAM, null, true, null, org.apache.calcite.plan.RelOptCostImpl.FACTORY);
        planner.setExecutor(new ColumbaRexExecutor());
        planner.setRoot(logical);
        RelNode physical = planner.findBestExp();
        if (!physicalThroughout(physical) || byKey && !seeks(physical)) {
            return Optional.empty();
        }
        return Optional.of(physical);
    }

    private static boolean values(RelNode rel) {
        RelNode below = rel instanceof LogicalProject project ? project.getInput() : rel;
        return below instanceof LogicalValues;
    }

    /** {@code [Project] Filter TableScan} of a clustered rowstore table without secondary indexes. */
    private static boolean lookup(RelNode rel) {
        RelNode below = rel instanceof LogicalProject project ? project.getInput() : rel;
        if (!(below instanceof LogicalFilter filter) || !(filter.getInput() instanceof LogicalTableScan scan)) {
            return false;
        }
        RowstoreTable table = scan.getTable().unwrap(RowstoreTable.class);
        return table != null && table.store().tree() != null && table.store().indexes().isEmpty();
    }

    private static boolean physicalThroughout(RelNode rel) {
        if (!(rel instanceof ColumbaRel)) {
            return false;
        }
        for (RelNode input : rel.getInputs()) {
            if (!physicalThroughout(input)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the plan's one table scan reads a key range (a seek), not the whole table. */
    private static boolean seeks(RelNode rel) {
        if (rel instanceof ColumbaRowstoreScan scan) {
            return scan.range() != null;
        }
        return rel.getInputs().size() == 1 && seeks(rel.getInputs().getFirst());
    }
}

package dev.columba.planner.rel;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.core.TableScan;

/** The tables a plan reads and writes, for locks and for the self-reference check of INSERT ... SELECT. */
public final class PlanTables {
    private PlanTables() {
    }

    /** Every table scanned or probed under {@code root}, in plan order (repeats possible). */
    public static List<RelOptTable> read(RelNode root) {
        List<RelOptTable> tables = new ArrayList<>();
        collect(root, tables, false);
        return tables;
    }

    /** Every table read or written under {@code root}. */
    public static List<RelOptTable> all(RelNode root) {
        List<RelOptTable> tables = new ArrayList<>();
        collect(root, tables, true);
        return tables;
    }

    private static void collect(RelNode node, List<RelOptTable> tables, boolean written) {
        RelNode rel = node instanceof RelSubset subset ? (subset.getBest() != null ? subset.getBest() : subset.getOriginal()) : node;
        if (rel == null) {
            return;
        }
        switch (rel) {
            case TableScan scan -> tables.add(scan.getTable());
            case ColumbaIndexNestedLoopJoin join -> tables.add(join.innerTable());
            case TableModify modify when written -> tables.add(modify.getTable());
            default -> {
            }
        }
        for (RelNode input : rel.getInputs()) {
            collect(input, tables, written);
        }
    }
}

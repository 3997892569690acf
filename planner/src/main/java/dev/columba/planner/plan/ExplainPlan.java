package dev.columba.planner.plan;

import dev.columba.core.exec.HashAggregateOperator;
import dev.columba.core.exec.Operator;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.planner.rel.ColumbaAggregate;
import dev.columba.planner.rel.ColumbaBitmapFilter;
import dev.columba.planner.rel.ColumbaColumnstoreScan;
import dev.columba.planner.rel.ColumbaFilter;
import dev.columba.planner.rel.ColumbaGather;
import dev.columba.planner.rel.ColumbaHashJoin;
import dev.columba.planner.rel.ColumbaIndexNestedLoopJoin;
import dev.columba.planner.rel.ColumbaIndexSeek;
import dev.columba.planner.rel.ColumbaMergeJoin;
import dev.columba.planner.rel.ColumbaNestedLoopJoin;
import dev.columba.planner.rel.ColumbaProject;
import dev.columba.planner.rel.ColumbaRepartition;
import dev.columba.planner.rel.ColumbaRel;
import dev.columba.planner.rel.ColumbaRowstoreScan;
import dev.columba.planner.rel.ColumbaSort;
import dev.columba.planner.rel.ColumbaSplitAggregate;
import dev.columba.planner.rel.ColumbaSystemViewScan;
import dev.columba.planner.rel.ColumbaTableFunctionScan;
import dev.columba.planner.rel.ColumbaTableModify;
import dev.columba.planner.rel.ColumbaUnion;
import dev.columba.planner.rel.ColumbaWindow;
import dev.columba.planner.rel.ColumbaValues;
import dev.columba.planner.rel.Execution;
import dev.columba.planner.rel.SharedSubplans;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * The text of {@code EXPLAIN}: one line per physical node, indented by depth, with its
 * properties, the optimizer's estimated rows, and how it executes:
 * <pre>
 * IndexNestedLoopJoin [INNER, inner testtable2 seek unique clustered key IDvarchar = outer.IDvarchar, WithUnorderedPrefetch] (estimated rows 26, ExecutionMode=Row)
 *   RowstoreScan [TestTable, clustered index order, seek ID &lt; 27] (estimated rows 26, ExecutionMode=Batch)
 * </pre>
 * Column references print as the input's column names.
 */
final class ExplainPlan {
    private static final Pattern INPUT_REFERENCE = Pattern.compile("\\$(\\d+)(?![\\d])");

    private ExplainPlan() {
    }

    static List<String> lines(RelNode root, Execution checked) {
        List<String> lines = new ArrayList<>();
        write(root, 0, checked, root.getCluster().getMetadataQuery(), SharedSubplans.of(root), new IdentityHashMap<>(), lines);
        return lines;
    }

    /**
     * Writes {@code rel}'s line and its inputs'. A subplan computed once for several readers
     * ({@link SharedSubplans}) is written under a Spool line where it is first read; where it is
     * read again, a Spool line says so and its subtree is not repeated.
     */
    private static void write(RelNode rel, int depth, Execution checked, RelMetadataQuery mq, Map<RelNode, Integer> shared,
                              Map<RelNode, Integer> spoolNumbers, List<String> lines) {
        Integer readers = shared.get(rel);
        if (readers != null) {
            Integer number = spoolNumbers.get(rel);
            if (number != null) {
                lines.add("  ".repeat(depth) + "Spool [Spool" + number + ", read again: the rows computed above]");
                return;
            }
            number = spoolNumbers.size() + 1;
            spoolNumbers.put(rel, number);
            lines.add("  ".repeat(depth) + "Spool [Spool" + number + ", computed once, read " + readers + " times]");
            depth++;
        }
        ColumbaRel node = (ColumbaRel) rel;
        Operator operator = checked.operatorOf(rel);
        ExecutionMode mode = operator == null ? ExecutionMode.BATCH : operator.mode();
        String detail = withNames(node.explainDetail(), rel);
        ColumbaAggregate aggregated = rel instanceof ColumbaAggregate aggregate ? aggregate
                : rel instanceof ColumbaSplitAggregate split && split.phase() != HashAggregateOperator.Phase.FINAL
                ? split.aggregate() : null;
        if (aggregated != null && checked.computesInScan(aggregated)) {
            // Decided per rowgroup when the plan runs: those with deleted rows, and delta rowgroups, are scanned.
            detail += ", computed in the columnstore scan where rowgroups allow (aggregate pushdown)";
        }
        double rows = mq.getRowCount(rel);
        lines.add("  ".repeat(depth) + name(rel) + (detail.isEmpty() ? "" : " [" + detail + "]")
                + " (estimated rows " + formatRows(rows) + ", ExecutionMode=" + (mode == ExecutionMode.ROW ? "Row" : "Batch") + ")");
        for (RelNode input : rel.getInputs()) {
            write(input, depth + 1, checked, mq, shared, spoolNumbers, lines);
        }
    }

    private static String formatRows(double rows) {
        if (rows == Math.rint(rows) && rows < 1e15) {
            return String.valueOf((long) rows);
        }
        return String.format(Locale.ROOT, "%.1f", rows);
    }

    private static String name(RelNode rel) {
        return switch (rel) {
            case ColumbaRowstoreScan ignored -> "RowstoreScan";
            case ColumbaIndexSeek ignored -> "IndexSeek";
            case ColumbaColumnstoreScan ignored -> "ColumnstoreScan";
            case ColumbaSystemViewScan ignored -> "SystemViewScan";
            case ColumbaFilter ignored -> "Filter";
            case ColumbaProject ignored -> "Project";
            case ColumbaAggregate ignored -> "HashAggregate";
            case ColumbaSplitAggregate ignored -> "HashAggregate";
            case ColumbaGather ignored -> "Parallelism";
            case ColumbaRepartition ignored -> "Parallelism";
            case ColumbaBitmapFilter ignored -> "BitmapFilter";
            case ColumbaHashJoin ignored -> "HashJoin";
            case ColumbaMergeJoin ignored -> "MergeJoin";
            case ColumbaNestedLoopJoin ignored -> "NestedLoopJoin";
            case ColumbaIndexNestedLoopJoin ignored -> "IndexNestedLoopJoin";
            case ColumbaSort sort -> sort.operatorName();
            case ColumbaUnion union -> union.all ? "UnionAll" : "Union";
            case ColumbaValues ignored -> "Values";
            case ColumbaWindow ignored -> "Window";
            case ColumbaTableFunctionScan ignored -> "TableFunctionScan";
            case ColumbaTableModify ignored -> "TableModify";
            default -> rel.getRelTypeName();
        };
    }

    /** {@code $n} in a node's detail becomes the name of input column n (of the join's pair row for joins). */
    private static String withNames(String detail, RelNode rel) {
        List<String> names = new ArrayList<>();
        for (RelNode input : rel.getInputs()) {
            names.addAll(input.getRowType().getFieldNames());
        }
        if (rel instanceof ColumbaIndexNestedLoopJoin join) {
            names.addAll(join.innerTable().getRowType().getFieldNames());
        }
        if (names.isEmpty()) {
            return detail;
        }
        Matcher matcher = INPUT_REFERENCE.matcher(detail);
        StringBuilder result = new StringBuilder();
        while (matcher.find()) {
            int index = Integer.parseInt(matcher.group(1));
            String replacement = index < names.size() ? names.get(index) : matcher.group();
            matcher.appendReplacement(result, Matcher.quoteReplacement(replacement));
        }
        matcher.appendTail(result);
        return result.toString();
    }
}

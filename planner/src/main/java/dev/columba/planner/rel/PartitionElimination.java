package dev.columba.planner.rel;

import dev.columba.core.expr.Expr;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import dev.columba.planner.schema.TablePartitions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Partition elimination, after cost-based planning: a scan of a partitioned rowstore table under a
 * filter reads only the partitions that can hold rows the filter keeps, judged from the filter's
 * comparisons of the partitioning column with literals ({@code =, <, <=, >, >=}, IN lists, BETWEEN,
 * combined with AND and OR) and from the scan's own key range. The filter stays: elimination only
 * skips partitions, it never decides a row. Anything it cannot judge (a parameter, an expression
 * over the column, a literal of another type) keeps every partition. EXPLAIN shows
 * {@code partitions k of n [..]}.
 *
 * <p>Before: {@code Filter(p_key < 100) <- RowstoreScan(t, partitions 4 of 4)}.
 * After: {@code Filter(p_key < 100) <- RowstoreScan(t, partitions 1 of 4 [1])}.
 */
public final class PartitionElimination {
    private final RexBuilder rexBuilder;

    private PartitionElimination(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    /** {@code root} with the partitions its filtered partitioned scans cannot need eliminated. */
    public static RelNode apply(RelNode root, RexBuilder rexBuilder) {
        return new PartitionElimination(rexBuilder).visit(root);
    }

    private RelNode visit(RelNode rel) {
        if (rel instanceof ColumbaFilter filter && filter.getInput() instanceof ColumbaRowstoreScan scan
                && scan.rowstore().partitions() != null) {
            int[] kept = intersect(partitions(scan, filter.getCondition(), true), rangePartitions(scan));
            if (kept != null && kept.length < scan.rowstore().partitions().count()) {
                return filter.copy(filter.getTraitSet(), List.of(scan.withPartitions(kept)));
            }
            return rel;
        }
        if (rel instanceof ColumbaRowstoreScan scan && scan.rowstore().partitions() != null) {
            int[] kept = rangePartitions(scan);
            return kept != null && kept.length < scan.rowstore().partitions().count() ? scan.withPartitions(kept) : rel;
        }
        List<RelNode> inputs = new ArrayList<>();
        boolean changed = false;
        for (RelNode input : rel.getInputs()) {
            RelNode visited = visit(input);
            changed |= visited != input;
            inputs.add(visited);
        }
        return changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
    }

    /** The partitions the scan's key range allows (its condition is over the table's columns), or null for all. */
    private int[] rangePartitions(ColumbaRowstoreScan scan) {
        RexNode range = scan.rangeCondition();
        return range == null ? null : partitions(scan, range, false);
    }

    /**
     * The partitions {@code condition} allows, ascending, or null when it allows every one (or
     * cannot say). {@code overProjection}: input references are the scan's output columns, else the
     * table's.
     */
    private int[] partitions(ColumbaRowstoreScan scan, RexNode condition, boolean overProjection) {
        RexNode node = condition.getKind() == SqlKind.SEARCH ? RexUtil.expandSearch(rexBuilder, null, condition) : condition;
        TablePartitions partitions = scan.rowstore().partitions();
        switch (node.getKind()) {
            case AND -> {
                int[] kept = null;
                for (RexNode operand : ((RexCall) node).getOperands()) {
                    kept = intersect(kept, partitions(scan, operand, overProjection));
                }
                return kept;
            }
            case OR -> {
                TreeSet<Integer> union = new TreeSet<>();
                for (RexNode operand : ((RexCall) node).getOperands()) {
                    int[] some = partitions(scan, operand, overProjection);
                    if (some == null) {
                        return null;
                    }
                    Arrays.stream(some).forEach(union::add);
                }
                return union.stream().mapToInt(Integer::intValue).toArray();
            }
            case EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> {
                RexCall call = (RexCall) node;
                RexNode left = call.getOperands().get(0);
                RexNode right = call.getOperands().get(1);
                SqlKind kind = node.getKind();
                if (left instanceof RexLiteral && !(right instanceof RexLiteral)) {
                    RexNode swapped = left;
                    left = right;
                    right = swapped;
                    kind = kind.reverse();
                }
                if (!(left instanceof RexInputRef reference) || !(right instanceof RexLiteral literal)
                        || tableColumn(scan, reference.getIndex(), overProjection) != partitions.column()) {
                    return null;
                }
                Object value = value(literal, partitions.type());
                if (value == null) {
                    return null;
                }
                return switch (kind) {
                    case EQUALS -> partitions.partitionsBetween(value, true, value, true);
                    case LESS_THAN -> partitions.partitionsBetween(null, true, value, false);
                    case LESS_THAN_OR_EQUAL -> partitions.partitionsBetween(null, true, value, true);
                    case GREATER_THAN -> partitions.partitionsBetween(value, false, null, true);
                    case GREATER_THAN_OR_EQUAL -> partitions.partitionsBetween(value, true, null, true);
                    default -> null;
                };
            }
            default -> {
                return null;
            }
        }
    }

    private static int tableColumn(ColumbaRowstoreScan scan, int index, boolean overProjection) {
        return overProjection ? scan.projection()[index] : index;
    }

    /** The literal as a value of the column's type, or null when it is NULL or of another type (not judged). */
    private Object value(RexLiteral literal, SqlType type) {
        Expr expression = Execution.planning(rexBuilder).translator(TableSchema.of(Column.nullable("unused", SqlType.INT)))
                .translate(literal);
        if (!(expression instanceof Expr.Literal constant) || constant.value() == null || !constant.type().equals(type)) {
            return null;
        }
        return Values.canonical(type, constant.value());
    }

    private static int[] intersect(int[] first, int[] second) {
        if (first == null) {
            return second;
        }
        if (second == null) {
            return first;
        }
        return Arrays.stream(first).filter(number -> Arrays.stream(second).anyMatch(other -> other == number)).toArray();
    }
}

package dev.columba.planner.plan;

import dev.columba.core.exec.HashAggregateOperator;
import dev.columba.planner.rel.ColumbaAggregate;
import dev.columba.planner.rel.ColumbaBitmapFilter;
import dev.columba.planner.rel.ColumbaColumnstoreScan;
import dev.columba.planner.rel.ColumbaFilter;
import dev.columba.planner.rel.ColumbaGather;
import dev.columba.planner.rel.ColumbaHashJoin;
import dev.columba.planner.rel.ColumbaNestedLoopJoin;
import dev.columba.planner.rel.ColumbaProject;
import dev.columba.planner.rel.ColumbaRepartition;
import dev.columba.planner.rel.ColumbaSplitAggregate;
import dev.columba.planner.rel.ColumbaTableModify;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Bitmap filters after planning (SQL Server's batch-mode bitmaps, the dynamic filters of DuckDB
 * and Trino): an INNER or SEMI hash join on a whole-number key builds its table before it reads
 * a single probe row, so the build side's key values can be handed down to the scan the probe key
 * comes from, which then drops rows without a partner before they are joined to anything else.
 * A SEMI or ANTI join that builds its left (preserved) input does the same for its right input,
 * whose rows only mark the build rows they match (TPC-H Q4: the orders of the quarter filter the
 * lineitem scan).
 * In TPC-H Q7 the supplier side of the last join keeps a few hundred suppliers; the lineitem scan,
 * five joins below it, drops nine rows in ten before they are probed against orders and customer.
 *
 * <p>The probe key is traced down to a columnstore scan through nodes that pass its values on
 * unchanged and only drop rows or pair them: projections of the column itself, filters, gathers,
 * both sides of inner joins, the preserved side of left joins, the left side of semi and anti
 * joins, and the group keys of aggregates (dropping a key's rows drops just its group; Q17's
 * average per part then runs over the selected parts' rows only). A row the bitmap drops could
 * only have produced output rows carrying its key, which the join would drop. The trace stops
 * anywhere else (sorts, unions, expressions, aggregated values). Each
 * placed filter is a {@link ColumbaBitmapFilter} above that occurrence of the scan (a scan object
 * can stand in two places of a plan: only the traced one is filtered), and the join publishes its
 * keys under the filter's name ({@link ColumbaHashJoin#withBitmapFilters}).
 *
 * <p>Modify statements are left alone.
 */
final class BitmapFilters {
    private int next = 1;
    private final Set<String> placed = new HashSet<>();
    /** Per node (by identity) visited without filters from above, what it became. */
    private final Map<RelNode, RelNode> withoutOutsideFilters = new IdentityHashMap<>();

    private BitmapFilters() {
    }

    static RelNode apply(RelNode root) {
        if (root instanceof ColumbaTableModify) {
            return root;
        }
        return new BitmapFilters().visit(root, Map.of());
    }

    /** {@code rel} with the filters of {@code pending} (output column → filter names) placed below it. */
    private RelNode visit(RelNode node, Map<Integer, List<String>> pending) {
        RelNode rel = node instanceof RelSubset subset ? subset.getBest() : node;
        if (!pending.isEmpty()) {
            return place(rel, pending);
        }
        // A node the plan reads in two places (one object, as Volcano gives equal subplans) takes no
        // filter from outside here and gets its own filters once, so that both places still read
        // one object, which execution computes once behind a spool (TPC-H Q11's grouped aggregate,
        // read by the query and by the total computed from its groups). Two copies with filters of
        // their own names would be computed twice.
        RelNode done = withoutOutsideFilters.get(rel);
        if (done == null) {
            done = place(rel, pending);
            withoutOutsideFilters.put(rel, done);
        }
        return done;
    }

    private RelNode place(RelNode rel, Map<Integer, List<String>> pending) {
        return switch (rel) {
            case ColumbaColumnstoreScan scan -> filtered(scan, pending);
            case ColumbaHashJoin join -> join(join, pending);
            case ColumbaNestedLoopJoin join -> withInputs(join, split(join, pending));
            case ColumbaProject project -> withInputs(project, List.of(throughProject(project, pending)));
            case ColumbaFilter filter -> withInputs(filter, List.of(pending));
            case ColumbaGather gather -> withInputs(gather, List.of(pending));
            case ColumbaRepartition repartition -> withInputs(repartition, List.of(pending));
            case ColumbaAggregate aggregate when aggregate.getGroupType() == Aggregate.Group.SIMPLE ->
                    withInputs(aggregate, List.of(throughGroupKeys(aggregate, pending, true)));
            case ColumbaSplitAggregate split -> withInputs(split, List.of(throughGroupKeys(split.aggregate(), pending,
                    split.phase() == HashAggregateOperator.Phase.PARTIAL)));
            default -> {
                List<Map<Integer, List<String>>> none = new ArrayList<>();
                for (int input = 0; input < rel.getInputs().size(); input++) {
                    none.add(Map.of());
                }
                yield withInputs(rel, none);
            }
        };
    }

    private RelNode filtered(ColumbaColumnstoreScan scan, Map<Integer, List<String>> pending) {
        RelNode result = scan;
        for (Map.Entry<Integer, List<String>> entry : new TreeMap<>(pending).entrySet()) {
            for (String name : entry.getValue()) {
                result = new ColumbaBitmapFilter(scan.getCluster(), scan.getTraitSet(), result, entry.getKey(), name);
                placed.add(name);
            }
        }
        return result;
    }

    private RelNode join(ColumbaHashJoin join, Map<Integer, List<String>> pending) {
        List<Map<Integer, List<String>>> sides = split(join, pending);
        JoinInfo info = join.analyzeCondition();
        String[] own = new String[info.leftKeys.size()];
        // Which side is probed: a SEMI or ANTI join building its left input probes with its right one,
        // whose rows only mark partners, so one without a partner can go (the ANTI join's too).
        boolean probesRight = join.buildsLeft();
        if (join.getJoinType() == JoinRelType.INNER || join.getJoinType() == JoinRelType.SEMI || probesRight) {
            for (int key = 0; key < own.length; key++) {
                int leftColumn = info.leftKeys.get(key);
                int rightColumn = info.rightKeys.get(key);
                SqlTypeName leftType = join.getLeft().getRowType().getFieldList().get(leftColumn).getType().getSqlTypeName();
                SqlTypeName rightType = join.getRight().getRowType().getFieldList().get(rightColumn).getType().getSqlTypeName();
                if (probesRight ? wholeNumbers(rightType, leftType) : wholeNumbers(leftType, rightType)) {
                    own[key] = "Bitmap" + next++;
                    add(sides.get(probesRight ? 1 : 0), probesRight ? rightColumn : leftColumn, own[key]);
                }
            }
        }
        RelNode left = visit(join.getLeft(), sides.get(0));
        RelNode right = visit(join.getRight(), sides.get(1));
        List<String> published = new ArrayList<>(Arrays.asList(own));
        published.replaceAll(name -> name != null && placed.contains(name) ? name : null);
        if (published.stream().allMatch(name -> name == null)) {
            return left == join.getLeft() && right == join.getRight() ? join
                    : join.copy(join.getTraitSet(), List.of(left, right));
        }
        return join.withBitmapFilters(left, right, published);
    }

    /** Which of the pending filters each side of a join may take: the columns of the sides that pass through unchanged. */
    private static List<Map<Integer, List<String>>> split(Join join, Map<Integer, List<String>> pending) {
        int leftCount = join.getLeft().getRowType().getFieldCount();
        JoinRelType type = join.getJoinType();
        Map<Integer, List<String>> left = new TreeMap<>();
        Map<Integer, List<String>> right = new TreeMap<>();
        boolean leftPasses = type == JoinRelType.INNER || type == JoinRelType.LEFT || type == JoinRelType.SEMI
                || type == JoinRelType.ANTI;
        for (Map.Entry<Integer, List<String>> entry : pending.entrySet()) {
            int column = entry.getKey();
            if (column < leftCount && leftPasses) {
                left.put(column, new ArrayList<>(entry.getValue()));
            } else if (column >= leftCount && type == JoinRelType.INNER) {
                right.put(column - leftCount, new ArrayList<>(entry.getValue()));
            }
        }
        return new ArrayList<>(List.of(left, right));
    }

    private static Map<Integer, List<String>> throughProject(ColumbaProject project, Map<Integer, List<String>> pending) {
        Map<Integer, List<String>> below = new TreeMap<>();
        for (Map.Entry<Integer, List<String>> entry : pending.entrySet()) {
            RexNode expression = project.getProjects().get(entry.getKey());
            if (expression instanceof RexInputRef reference) {
                for (String name : entry.getValue()) {
                    add(below, reference.getIndex(), name);
                }
            }
        }
        return below;
    }

    /**
     * Pending filters on an aggregate's group keys, as columns of its input ({@code toInput}) or
     * as the same columns of a partial aggregation's output (the final phase's input): a group
     * key's value is its input rows' value, so dropping the rows of a key drops just its group.
     */
    private static Map<Integer, List<String>> throughGroupKeys(Aggregate aggregate, Map<Integer, List<String>> pending,
                                                               boolean toInput) {
        Map<Integer, List<String>> below = new TreeMap<>();
        List<Integer> keys = aggregate.getGroupSet().asList();
        for (Map.Entry<Integer, List<String>> entry : pending.entrySet()) {
            if (entry.getKey() < keys.size()) {
                for (String name : entry.getValue()) {
                    add(below, toInput ? keys.get(entry.getKey()) : entry.getKey(), name);
                }
            }
        }
        return below;
    }

    private static void add(Map<Integer, List<String>> pending, int column, String name) {
        pending.computeIfAbsent(column, ignored -> new ArrayList<>()).add(name);
    }

    /** {@code rel} over its inputs visited with {@code pending} each; {@code rel} itself when none changed. */
    private RelNode withInputs(RelNode rel, List<Map<Integer, List<String>>> pending) {
        List<RelNode> inputs = new ArrayList<>();
        boolean changed = false;
        for (int index = 0; index < rel.getInputs().size(); index++) {
            RelNode input = rel.getInputs().get(index);
            RelNode visited = visit(input, pending.get(index));
            RelNode original = input instanceof RelSubset subset ? subset.getBest() : input;
            changed |= visited != original;
            inputs.add(visited);
        }
        return changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
    }

    /** Whether a key of type {@code probe} joined to one of type {@code build} compares whole numbers as they are stored. */
    private static boolean wholeNumbers(SqlTypeName probe, SqlTypeName build) {
        boolean probeInteger = probe == SqlTypeName.INTEGER || probe == SqlTypeName.BIGINT;
        boolean buildInteger = build == SqlTypeName.INTEGER || build == SqlTypeName.BIGINT;
        return (probeInteger && buildInteger) || (probe == SqlTypeName.DATE && build == SqlTypeName.DATE);
    }
}

package dev.columba.planner.rel;

import dev.columba.planner.schema.RowstoreTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

/**
 * The order rows arrive in, as far as a merge join needs it: Columba's Volcano planner carries no
 * collation trait (sorts are explicit nodes), so the order is read off the plan. A clustered
 * rowstore table's scan delivers its key order (the B+tree's leaf chain: ascending, NULLs first),
 * a secondary index seek its remaining key columns in their directions, a sort and an ordered
 * gather their collation; filters keep the order and projections carry the columns they pass on.
 * Anything else (hash joins, aggregates, unordered gathers, partitioned scans) has none known.
 * Logical plans are read the same way, through Volcano's subsets (the longest order among the
 * subset's expressions), for the rule that offers merge joins; the physical plan chosen is read
 * again when the join runs ({@link ColumbaMergeJoin}), which sorts an input that lost it.
 */
public final class KeyOrder {
    /** Deeper plans are not searched (a subset can lead back to itself through its expressions). */
    private static final int MAX_DEPTH = 24;

    private KeyOrder() {
    }

    /** The columns {@code rel}'s rows are sorted by, leading one first; empty when no order is known. */
    public static List<RelFieldCollation> of(RelNode rel) {
        return of(rel, 0);
    }

    private static List<RelFieldCollation> of(RelNode rel, int depth) {
        if (depth > MAX_DEPTH) {
            return List.of();
        }
        return switch (rel) {
            case RelSubset subset -> {
                List<RelFieldCollation> longest = List.of();
                for (RelNode member : subset.getRelList()) {
                    List<RelFieldCollation> order = of(member, depth + 1);
                    if (order.size() > longest.size()) {
                        longest = order;
                    }
                }
                yield longest;
            }
            case ColumbaRowstoreScan scan -> scan.partitionsRead().length > 1 || !scan.clustered() ? List.of()
                    : ascending(scan.rowstore().keyColumns(), scan.projection());
            case ColumbaIndexSeek seek -> seek.order();
            case ColumbaGather gather -> gather.order().getFieldCollations();
            case TableScan scan when scan.getTable().unwrap(RowstoreTable.class) instanceof RowstoreTable table
                    && table.store().tree() != null && table.partitions() == null && !(scan instanceof ColumbaRel) ->
                    ascending(table.keyColumns(), null);
            case Sort sort -> sort.getCollation().getFieldCollations();
            case Filter filter -> of(filter.getInput(), depth + 1);
            case Project project -> projected(of(project.getInput(), depth + 1), project.getProjects());
            default -> List.of();
        };
    }

    /** Ascending key columns, as positions among {@code projection} (null: the table's own), up to the first not projected. */
    private static List<RelFieldCollation> ascending(List<Integer> keyColumns, int[] projection) {
        List<RelFieldCollation> order = new ArrayList<>();
        for (int column : keyColumns) {
            int position = projection == null ? column : indexOf(projection, column);
            if (position < 0) {
                break;
            }
            order.add(new RelFieldCollation(position, RelFieldCollation.Direction.ASCENDING,
                    RelFieldCollation.NullDirection.FIRST));
        }
        return order;
    }

    static int indexOf(int[] columns, int column) {
        for (int position = 0; position < columns.length; position++) {
            if (columns[position] == column) {
                return position;
            }
        }
        return -1;
    }

    /** {@code input}'s order as columns of a projection of {@code projects}, up to the first column it drops. */
    private static List<RelFieldCollation> projected(List<RelFieldCollation> input, List<RexNode> projects) {
        List<RelFieldCollation> order = new ArrayList<>();
        for (RelFieldCollation field : input) {
            int position = -1;
            for (int index = 0; index < projects.size() && position < 0; index++) {
                if (projects.get(index) instanceof RexInputRef reference && reference.getIndex() == field.getFieldIndex()) {
                    position = index;
                }
            }
            if (position < 0) {
                break;
            }
            order.add(field.withFieldIndex(position));
        }
        return order;
    }

    /**
     * The order a merge join of {@code info}'s key pairs reads its inputs in: the pairs (indexes
     * into {@code info}'s keys) in sort order and whether each is descending.
     *
     * @param pairs      per sort position, the key pair
     * @param descending per sort position, whether both inputs sort it descending
     */
    public record Merge(List<Integer> pairs, List<Boolean> descending) {
        public Merge {
            pairs = List.copyOf(pairs);
            descending = List.copyOf(descending);
            if (pairs.size() != descending.size()) {
                throw new IllegalArgumentException(pairs.size() + " key pairs and " + descending.size() + " directions");
            }
        }

        /** Every pair in {@code info}'s order, ascending: the order sorts are added in. */
        static Merge ascending(JoinInfo info) {
            List<Integer> pairs = new ArrayList<>();
            List<Boolean> descending = new ArrayList<>();
            for (int pair = 0; pair < info.leftKeys.size(); pair++) {
                pairs.add(pair);
                descending.add(false);
            }
            return new Merge(pairs, descending);
        }

        /** The collation of one side's key columns ({@code keys}: that side's keys of the join, in {@code info}'s order). */
        public RelCollation collation(List<Integer> keys) {
            List<RelFieldCollation> fields = new ArrayList<>();
            for (int index = 0; index < pairs.size(); index++) {
                boolean down = descending.get(index);
                fields.add(new RelFieldCollation(keys.get(pairs.get(index)), down ? RelFieldCollation.Direction.DESCENDING
                        : RelFieldCollation.Direction.ASCENDING, down ? RelFieldCollation.NullDirection.FIRST
                        : RelFieldCollation.NullDirection.LAST));
            }
            return RelCollations.of(fields);
        }
    }

    /**
     * The merge order when {@code order} (one side's) starts with every key pair's column on that
     * side ({@code keys}, in {@code info}'s pair order), each once; null if it does not.
     */
    static Merge covering(List<RelFieldCollation> order, List<Integer> keys) {
        if (order.size() < keys.size()) {
            return null;
        }
        List<Integer> pairs = new ArrayList<>();
        List<Boolean> descending = new ArrayList<>();
        for (int position = 0; position < keys.size(); position++) {
            RelFieldCollation field = order.get(position);
            int pair = -1;
            for (int candidate = 0; candidate < keys.size() && pair < 0; candidate++) {
                if (keys.get(candidate) == field.getFieldIndex() && !pairs.contains(candidate)) {
                    pair = candidate;
                }
            }
            if (pair < 0) {
                return null;
            }
            pairs.add(pair);
            descending.add(field.getDirection().isDescending());
        }
        return new Merge(pairs, descending);
    }

    /** The merge order both sides already deliver (same pairs, same directions), or null. */
    public static Merge both(List<RelFieldCollation> left, List<RelFieldCollation> right, JoinInfo info) {
        Merge fromLeft = covering(left, info.leftKeys);
        Merge fromRight = covering(right, info.rightKeys);
        return fromLeft != null && fromLeft.equals(fromRight) ? fromLeft : null;
    }

    /** The merge order to sort for: one side's own when it has one (only the other side is sorted), else all ascending. */
    public static Merge toSort(List<RelFieldCollation> left, List<RelFieldCollation> right, JoinInfo info) {
        Merge fromLeft = covering(left, info.leftKeys);
        if (fromLeft != null) {
            return fromLeft;
        }
        Merge fromRight = covering(right, info.rightKeys);
        return fromRight != null ? fromRight : Merge.ascending(info);
    }

    /** Whether {@code order} starts with {@code merge}'s order of {@code keys} (one side's keys, in {@code info}'s pair order). */
    public static boolean delivers(List<RelFieldCollation> order, Merge merge, List<Integer> keys) {
        Merge covered = covering(order, keys);
        return merge.equals(covered);
    }
}

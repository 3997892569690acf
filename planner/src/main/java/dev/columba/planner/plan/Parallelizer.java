package dev.columba.planner.plan;

import dev.columba.core.exec.HashAggregateOperator;
import dev.columba.planner.rel.ColumbaAggregate;
import dev.columba.planner.rel.ColumbaColumnstoreScan;
import dev.columba.planner.rel.ColumbaFilter;
import dev.columba.planner.rel.ColumbaGather;
import dev.columba.planner.rel.ColumbaHashJoin;
import dev.columba.planner.rel.ColumbaProject;
import dev.columba.planner.rel.ColumbaRepartition;
import dev.columba.planner.rel.ColumbaRowstoreScan;
import dev.columba.planner.rel.ColumbaSort;
import dev.columba.planner.rel.ColumbaSplitAggregate;
import dev.columba.planner.rel.ColumbaTableModify;
import dev.columba.planner.rel.RowBytes;
import dev.columba.planner.rel.SharedSubplans;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

/**
 * Makes a serial physical plan parallel, after cost-based planning (as SQL Server adds its
 * Parallelism operators to the best serial plan): every fragment that streams rows from a
 * columnstore scan through filters, projections and the probe side of hash joins is run by
 * {@code degree} workers dividing the scan's rowgroups, under a {@link ColumbaGather}. Each hash
 * join's table is built once and probed by all workers: from every worker's share of the build
 * input when that input streams from a big enough scan too (the workers divide that scan as well),
 * else by the first worker to need it. A join that returns build rows once probing is done (a FULL
 * join, and a LEFT, SEMI or ANTI join building its left input) shares the build's match flags
 * among the workers and returns those rows from the last worker to finish probing (core's
 * {@code SharedHashBuild}). An aggregate
 * over such a fragment is split into a partial aggregation per worker and a final merge above the
 * gather (not with DISTINCT aggregates, which then run above the gather); an aggregate of many
 * groups is merged in the workers instead, each over the groups of its partition after a
 * {@link ColumbaRepartition} by the keys, with the filters and projections right above it. A top-N (ORDER BY with
 * FETCH or LIMIT) or a limit over such a fragment, or over groups merged in the workers, is split
 * the same way: each worker keeps its offset + fetch first rows, and the final top-N above the
 * gather picks from theirs. A full sort (ORDER BY without OFFSET or FETCH) over such a fragment,
 * or over groups merged in the workers, is sorted by each worker, its share, and merged in order
 * by the gather. Everything else stays serial, above the gathers: window functions among them.
 *
 * <p>A fragment is made parallel only when its scan is estimated to read at least
 * {@code thresholdRows} rows (the {@code parallelism_threshold_rows} setting), and only in a plan
 * whose scans read at least {@link #PLAN_THRESHOLDS} times as many in all, or as many bytes as
 * that many rows of 32 bytes (or that scans rowstore partitions): below that, starting workers
 * costs more than it saves. Statements that modify
 * tables stay serial.
 */
final class Parallelizer {
    private final int degree;
    private final double thresholdRows;
    /**
     * Each node's rewrite, so that a node the plan reads in two places (a view used twice) is
     * rewritten once and stays one node, which an execution then computes once (a spool, see
     * {@code rel.SharedSubplans}); rewriting each place anew made two copies, each computed.
     */
    private final Map<RelNode, RelNode> rewritten = new IdentityHashMap<>();
    /** Per node, the places the plan reads it: a node read in more than one must stay one node. */
    private final Map<RelNode, Integer> readers;

    private Parallelizer(int degree, double thresholdRows, RelNode root) {
        this.degree = degree;
        this.thresholdRows = thresholdRows;
        this.readers = SharedSubplans.readers(root);
    }

    /** {@code root} with its parallel fragments under gathers of {@code degree} workers; itself when degree is 1. */
    static RelNode apply(RelNode root, int degree, double thresholdRows) {
        if (degree <= 1 || root instanceof ColumbaTableModify
                || small(root, thresholdRows) && !readsPartitions(root)) {
            return root;
        }
        return new Parallelizer(degree, thresholdRows, root).visit(root);
    }

    /**
     * A plan whose scans read fewer than this many times {@code thresholdRows} rows in all, and
     * fewer bytes than as many rows of {@link RowBytes#ROW_BYTES} each, stays serial (SQL Server's
     * cost threshold for parallelism applies to the whole plan too). Such a plan runs in tens of
     * milliseconds, where a parallel plan's fixed costs — its gathers' threads and hand-offs, the
     * shared builds' waits, a repartition's copy and barrier — weigh as much as the work divided:
     * TPC-H Q2, Q11, Q16 and Q22 at SF 1 (1.0 to 1.8 million rows, 15 to 37 MB scanned) ran up to
     * 1.6 times their serial time at MAXDOP 2; every query that gained reads six million rows or
     * more. The bytes count because rows alone misjudge wide ones: Q13 reads 1.65 million rows
     * but 84 MB, most of them order comments that a LIKE searches, 0.3 s of CPU serially.
     */
    private static final int PLAN_THRESHOLDS = 20;

    /** Whether {@code root}'s scans read too little in all, in rows and in bytes, for workers to pay. */
    private static boolean small(RelNode root, double thresholdRows) {
        double rows = PLAN_THRESHOLDS * thresholdRows;
        return rowsScanned(root) < rows && bytesScanned(root, root.getCluster().getMetadataQuery()) < rows * RowBytes.ROW_BYTES;
    }

    /**
     * Whether the plan scans several partitions of a rowstore table: their workers divide reads
     * from several files, which pays for itself on a cold scan however few rows it counts (seed
     * 002's hash-partitioned table), so the plan threshold does not keep such a plan serial.
     */
    private static boolean readsPartitions(RelNode rel) {
        if (partitionedScan(rel)) {
            return true;
        }
        for (RelNode input : rel.getInputs()) {
            if (readsPartitions(input)) {
                return true;
            }
        }
        return false;
    }

    /** The rows the plan's table scans read in all, before their filters. */
    private static double rowsScanned(RelNode rel) {
        if (rel instanceof ColumbaColumnstoreScan || rel instanceof ColumbaRowstoreScan) {
            return rel.getTable().getRowCount();
        }
        double rows = 0;
        for (RelNode input : rel.getInputs()) {
            rows += rowsScanned(input);
        }
        return rows;
    }

    /** The bytes the plan's table scans read in all, before their filters: rows times their columns' estimated width. */
    private static double bytesScanned(RelNode rel, RelMetadataQuery mq) {
        if (rel instanceof ColumbaColumnstoreScan || rel instanceof ColumbaRowstoreScan) {
            return rel.getTable().getRowCount() * RowBytes.bytes(rel, mq);
        }
        double bytes = 0;
        for (RelNode input : rel.getInputs()) {
            bytes += bytesScanned(input, mq);
        }
        return bytes;
    }

    private RelNode visit(RelNode rel) {
        RelNode done = rewritten.get(rel);
        if (done == null) {
            done = rewrite(rel);
            rewritten.put(rel, done);
        }
        return done;
    }

    private RelNode rewrite(RelNode rel) {
        if (rel instanceof ColumbaAggregate aggregate && aggregate.splittable()) {
            RelNode driver = driver(aggregate.getInput());
            if (driver != null) {
                List<RelNode> drivers = new ArrayList<>(List.of(driver));
                RelNode partial = new ColumbaSplitAggregate(aggregate.getTraitSet(), buildSidesVisited(aggregate.getInput(), drivers),
                        aggregate, HashAggregateOperator.Phase.PARTIAL);
                if (mergedByWorkers(aggregate)) {
                    RelNode exchange = new ColumbaRepartition(partial.getTraitSet(), partial, firstColumns(aggregate.getGroupCount()), degree);
                    RelNode merge = new ColumbaSplitAggregate(aggregate.getTraitSet(), exchange, aggregate, HashAggregateOperator.Phase.FINAL);
                    return new ColumbaGather(rel.getCluster(), rel.getTraitSet(), merge, degree, drivers);
                }
                RelNode gather = new ColumbaGather(rel.getCluster(), rel.getTraitSet(), partial, degree, drivers);
                return new ColumbaSplitAggregate(aggregate.getTraitSet(), gather, aggregate, HashAggregateOperator.Phase.FINAL);
            }
        }
        if (rel instanceof ColumbaSort sort && sort.fetch != null && streams(sort.getInput())) {
            RelNode driver = driver(sort.getInput());
            RexNode kept = rowsKept(sort);
            if (driver != null && kept != null) {
                List<RelNode> drivers = new ArrayList<>(List.of(driver));
                RelNode fragment = buildSidesVisited(sort.getInput(), drivers);
                RelNode partial = sort.copy(sort.getTraitSet(), fragment, sort.getCollation(), null, kept);
                RelNode gather = new ColumbaGather(rel.getCluster(), fragment.getTraitSet(), partial, degree, drivers);
                return sort.copy(sort.getTraitSet(), gather, sort.getCollation(), sort.offset, sort.fetch);
            }
        }
        if (rel instanceof ColumbaSort sort && fullSort(sort) && streams(sort.getInput())) {
            RelNode driver = driver(sort.getInput());
            if (driver != null) {
                List<RelNode> drivers = new ArrayList<>(List.of(driver));
                RelNode fragment = buildSidesVisited(sort.getInput(), drivers);
                RelNode partial = sort.copy(sort.getTraitSet(), fragment, sort.getCollation(), null, null);
                return new ColumbaGather(rel.getCluster(), sort.getTraitSet(), partial, degree, drivers, sort.getCollation());
            }
        }
        if (streams(rel)) {
            RelNode driver = driver(rel);
            if (driver != null) {
                List<RelNode> drivers = new ArrayList<>(List.of(driver));
                RelNode fragment = buildSidesVisited(rel, drivers);
                return new ColumbaGather(rel.getCluster(), rel.getTraitSet(), fragment, degree, drivers);
            }
        }
        List<RelNode> inputs = new ArrayList<>();
        boolean changed = false;
        for (RelNode input : rel.getInputs()) {
            RelNode visited = visit(input);
            changed |= visited != input;
            inputs.add(visited);
        }
        if ((rel instanceof ColumbaFilter || rel instanceof ColumbaProject) && readers.getOrDefault(rel.getInput(0), 1) < 2
                && inputs.getFirst() instanceof ColumbaGather gather && mergesInWorkers(gather.getInput())) {
            // A filter or projection of the merged groups (HAVING, say) runs in the workers too, on the groups of each;
            // not when the gather is read elsewhere too: the copy would be a second fragment, computed again.
            return gather.copy(gather.getTraitSet(), List.of(rel.copy(rel.getTraitSet(), List.of(gather.getInput()))));
        }
        if (rel instanceof ColumbaSort sort && sort.fetch != null && readers.getOrDefault(rel.getInput(0), 1) < 2
                && inputs.getFirst() instanceof ColumbaGather gather && mergesInWorkers(gather.getInput())) {
            // A top-N of the merged groups is split as one over a streaming fragment is: each worker keeps its best
            // offset + fetch groups, and the final top-N picks from theirs (TPC-H Q10's top 20 customers of 38,000
            // groups copied every group's strings into one top-N above the gather, on one thread).
            RexNode kept = rowsKept(sort);
            if (kept != null) {
                RelNode partial = sort.copy(sort.getTraitSet(), gather.getInput(), sort.getCollation(), null, kept);
                return sort.copy(sort.getTraitSet(), gather.copy(gather.getTraitSet(), List.of(partial)), sort.getCollation(),
                        sort.offset, sort.fetch);
            }
        }
        if (rel instanceof ColumbaSort sort && fullSort(sort) && readers.getOrDefault(rel.getInput(0), 1) < 2
                && inputs.getFirst() instanceof ColumbaGather gather && gather.order().getFieldCollations().isEmpty()
                && mergesInWorkers(gather.getInput())) {
            // A full sort of the groups merged in the workers: each sorts its groups, the gather merges them.
            RelNode partial = sort.copy(sort.getTraitSet(), gather.getInput(), sort.getCollation(), null, null);
            return new ColumbaGather(rel.getCluster(), sort.getTraitSet(), partial, gather.degree(), gather.drivers(),
                    sort.getCollation());
        }
        return changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
    }

    /**
     * Whether {@code sort} is an ORDER BY of every row (no OFFSET, no FETCH), which its workers can
     * sort a share each of and a gather merge: the sort is parallel, only the merge of the workers'
     * sorted runs (a comparison or two and a copy per row) stays on one thread.
     */
    private static boolean fullSort(ColumbaSort sort) {
        return sort.fetch == null && sort.offset == null && !sort.getCollation().getFieldCollations().isEmpty();
    }

    /**
     * Whether the final merge of {@code aggregate} runs in the workers, each over the groups of its
     * partition after a repartition by the keys: when it has keys and is estimated to return at
     * least {@code thresholdRows / MERGED_GROUPS_FRACTION} groups. Fewer groups are merged serially
     * above the gather at little cost; many (TPC-H Q18's 1.5 million orders) made the serial merge
     * the longest part.
     */
    private boolean mergedByWorkers(ColumbaAggregate aggregate) {
        return aggregate.getGroupCount() > 0
                && aggregate.getCluster().getMetadataQuery().getRowCount(aggregate) >= thresholdRows / MERGED_GROUPS_FRACTION;
    }

    /**
     * An aggregate estimated to return at least this fraction of {@code thresholdRows} groups is
     * merged in the workers: TPC-H Q10's 38,000 customer groups (estimated 45,000), of seven keys
     * four of them strings, were merged above the gather on one thread, then cut to their top 20
     * there, 17-20% of the query's serial time left serial at MAXDOP 2.
     */
    private static final int MERGED_GROUPS_FRACTION = 4;

    /** Whether {@code fragment} is a merge in the workers, under filters and projections. */
    private static boolean mergesInWorkers(RelNode fragment) {
        RelNode node = fragment;
        while (node instanceof ColumbaFilter || node instanceof ColumbaProject) {
            node = node.getInput(0);
        }
        return node instanceof ColumbaSplitAggregate split && split.phase() == HashAggregateOperator.Phase.FINAL
                && split.getInput() instanceof ColumbaRepartition;
    }

    private static List<Integer> firstColumns(int count) {
        List<Integer> columns = new ArrayList<>();
        for (int column = 0; column < count; column++) {
            columns.add(column);
        }
        return columns;
    }

    /**
     * {@code fragment} with the build sides of the hash joins along its driver path made parallel
     * too. A build side that streams from a big enough scan of its own becomes part of the
     * fragment: every worker reads its share of it (the workers divide that scan as well, which is
     * added to {@code drivers}) and the join builds its table from all shares. Any other build side
     * is read by the first worker to need it, through a gather of its own where it has parallel
     * fragments in turn. The driver path itself (and so the driver) is unchanged.
     */
    private RelNode buildSidesVisited(RelNode fragment, List<RelNode> drivers) {
        if (fragment instanceof ColumbaHashJoin join) {
            RelNode probe = buildSidesVisited(join.probe(), drivers);
            if (streams(join.build()) && driver(join.build()) != null) {
                return join.withBuildReadByEach(ownDriver(buildSidesVisited(join.build(), drivers), drivers), probe);
            }
            RelNode build = visit(join.build());
            return probe == join.probe() && build == join.build() ? join
                    : join.copy(join.getTraitSet(), join.inputs(build, probe));
        }
        if (fragment instanceof ColumbaFilter || fragment instanceof ColumbaProject) {
            RelNode input = buildSidesVisited(fragment.getInput(0), drivers);
            return input == fragment.getInput(0) ? fragment : fragment.copy(fragment.getTraitSet(), List.of(input));
        }
        return fragment;
    }

    /**
     * The rows a worker's partial top-N (or limit) keeps for {@code sort}: its offset plus its
     * fetch, the most rows of one worker that the final one can return; null when they are not
     * both constants (a parameter's value is only known when the plan runs).
     */
    private static RexNode rowsKept(ColumbaSort sort) {
        if (!(sort.fetch instanceof RexLiteral fetch) || sort.offset != null && !(sort.offset instanceof RexLiteral)) {
            return null;
        }
        BigDecimal rows = fetch.getValueAs(BigDecimal.class);
        if (sort.offset != null) {
            BigDecimal offset = ((RexLiteral) sort.offset).getValueAs(BigDecimal.class);
            if (rows == null || offset == null) {
                return null;
            }
            rows = rows.add(offset);
        }
        if (rows == null || rows.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
            return null;
        }
        return sort.getCluster().getRexBuilder().makeExactLiteral(rows, fetch.getType());
    }

    /**
     * {@code fragment} (a build input that streams from a scan) with a copy of its scan of its own
     * at the end of its driver path, added to {@code drivers}. One scan object can stand in several
     * places of a plan (Volcano shares equal subtrees: TPC-H Q7 reads nation, filtered the same
     * way, for both the supplier and the customer side), and the workers' morsels are shared per
     * scan object, so each divided occurrence needs an object of its own.
     */
    private static RelNode ownDriver(RelNode fragment, List<RelNode> drivers) {
        if (fragment instanceof ColumbaColumnstoreScan || fragment instanceof ColumbaRowstoreScan) {
            RelNode copy = fragment.copy(fragment.getTraitSet(), List.of());
            drivers.add(copy);
            return copy;
        }
        RelNode input = fragment instanceof ColumbaHashJoin join ? join.probe() : fragment.getInput(0);
        RelNode replaced = ownDriver(input, drivers);
        if (fragment instanceof ColumbaHashJoin join) {
            return join.copy(join.getTraitSet(), join.inputs(join.build(), replaced));
        }
        return fragment.copy(fragment.getTraitSet(), List.of(replaced));
    }

    /** Whether workers can run {@code rel} on their share of rows, each on its own. */
    private static boolean streams(RelNode rel) {
        return rel instanceof ColumbaFilter || rel instanceof ColumbaProject || rel instanceof ColumbaColumnstoreScan
                || rel instanceof ColumbaHashJoin || partitionedScan(rel);
    }

    /** The scan whose rowgroups the workers of a fragment rooted at {@code rel} would divide, if it is big enough. */
    private RelNode driver(RelNode rel) {
        RelNode node = rel;
        // Down the probe side of hash joins: each worker probes the one shared table with its rows.
        while (node instanceof ColumbaFilter || node instanceof ColumbaProject || node instanceof ColumbaHashJoin) {
            node = node instanceof ColumbaHashJoin join ? join.probe() : node.getInput(0);
        }
        if (node instanceof ColumbaColumnstoreScan scan && scanRows(scan) >= thresholdRows) {
            return scan;
        }
        if (partitionedScan(node) && node.getTable().getRowCount() >= thresholdRows) {
            return node;
        }
        return null;
    }

    /** Rows the scan reads: the table's rows, before its pushed-down filters (those only skip rowgroups). */
    private static double scanRows(ColumbaColumnstoreScan scan) {
        return scan.getTable().getRowCount();
    }

    /**
     * A rowstore scan of two or more partitions: its workers divide the partitions (each reads
     * whole partitions); a rowstore scan of one table or partition stays serial.
     */
    private static boolean partitionedScan(RelNode rel) {
        return rel instanceof ColumbaRowstoreScan scan && scan.partitionsRead().length >= 2;
    }
}

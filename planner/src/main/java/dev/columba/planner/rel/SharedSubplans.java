package dev.columba.planner.rel;

import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.RelNode;

/**
 * The subplans a physical plan reads in more than one place, which an execution computes once
 * ({@link dev.columba.core.exec.Spool}) instead of once per reader. The planner gives a subplan
 * that two parts of a query need (a view or common table expression used twice, as in TPC-H Q15)
 * one node, so the plan is a graph: its nodes are found by identity.
 *
 * <p>Spooled: a shared aggregation, join, sort, union, window or gather (a whole parallel
 * fragment), where recomputing costs more than keeping a copy of the result. Not spooled: scans,
 * filters, projections and values (cheaper to run again than to copy), anything inside a parallel
 * fragment (each worker has its own copy of the fragment), and a subplan that tests a bitmap filter
 * a join outside it publishes (its rows depend on where it is read).
 */
public final class SharedSubplans {
    private SharedSubplans() {
    }

    /** Per spooled subplan of the plan at {@code root}, the number of places that read it. */
    public static Map<RelNode, Integer> of(RelNode root) {
        Map<RelNode, Integer> readers = readers(root);
        Map<RelNode, Integer> shared = new IdentityHashMap<>();
        readers.forEach((rel, count) -> {
            if (count > 1 && worthKeeping(rel) && selfContained(rel)) {
                shared.put(rel, count);
            }
        });
        return shared;
    }

    /** Per node of the plan at {@code root} outside parallel fragments, the number of places that read it. */
    public static Map<RelNode, Integer> readers(RelNode root) {
        Map<RelNode, Integer> readers = new IdentityHashMap<>();
        count(root, readers);
        return readers;
    }

    static RelNode physical(RelNode rel) {
        return rel instanceof RelSubset subset ? subset.getBest() : rel;
    }

    /** Counts each node's readers as instantiation meets them: a node read again is not descended into again. */
    private static void count(RelNode rel, Map<RelNode, Integer> readers) {
        RelNode node = physical(rel);
        if (readers.merge(node, 1, Integer::sum) > 1) {
            return;
        }
        if (node instanceof ColumbaGather || node instanceof ColumbaRepartition) {
            return;
        }
        for (RelNode input : node.getInputs()) {
            count(input, readers);
        }
    }

    private static boolean worthKeeping(RelNode rel) {
        return rel instanceof ColumbaAggregate || rel instanceof ColumbaSplitAggregate || rel instanceof ColumbaHashJoin
                || rel instanceof ColumbaNestedLoopJoin || rel instanceof ColumbaSort || rel instanceof ColumbaUnion
                || rel instanceof ColumbaWindow || rel instanceof ColumbaGather;
    }

    /** Whether every bitmap filter tested inside {@code rel} is published by a join inside it too. */
    private static boolean selfContained(RelNode rel) {
        Set<String> tested = new HashSet<>();
        Set<String> published = new HashSet<>();
        collectFilters(rel, tested, published);
        return published.containsAll(tested);
    }

    private static void collectFilters(RelNode rel, Set<String> tested, Set<String> published) {
        RelNode node = physical(rel);
        if (node instanceof ColumbaBitmapFilter filter) {
            tested.add(filter.filterName());
        }
        if (node instanceof ColumbaHashJoin join) {
            published.addAll(join.publishedFilters());
        }
        for (RelNode input : node.getInputs()) {
            collectFilters(input, tested, published);
        }
    }
}

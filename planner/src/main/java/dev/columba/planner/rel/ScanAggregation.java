package dev.columba.planner.rel;

import dev.columba.columnstore.scan.ScanAggregate;
import dev.columba.planner.exec.ColumnstoreScanOperator;
import java.util.List;

/**
 * An aggregation's request that the columnstore scan under it compute its calls itself where it
 * can ({@code ColumnstoreScan.aggregate}): one {@link ScanAggregate} per call, in order, and the
 * scan operator that took the request when it was instantiated (null until then). Made per
 * instantiation, so a cached plan's executions and a parallel plan's workers each have their own.
 */
final class ScanAggregation {
    private final List<ScanAggregate> aggregates;
    private ColumnstoreScanOperator scan;

    ScanAggregation(List<ScanAggregate> aggregates) {
        this.aggregates = List.copyOf(aggregates);
    }

    List<ScanAggregate> aggregates() {
        return aggregates;
    }

    /** Called by the scan's instantiation when it takes the request. */
    void takenBy(ColumnstoreScanOperator scan) {
        scan.aggregate(aggregates);
        this.scan = scan;
    }

    /** The scan that computes the aggregates, or null if none took the request. */
    ColumnstoreScanOperator scan() {
        return scan;
    }
}

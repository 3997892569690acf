package dev.columba.planner.rel;

import dev.columba.planner.schema.ColumbaTable;
import java.util.List;
import java.util.OptionalDouble;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * The selectivity of an equi-join from distinct counts: {@code 1 / max(d(left keys), d(right keys))},
 * the textbook estimate that assumes the side with fewer distinct keys finds each of them on the
 * other side (containment).
 *
 * <p>A side's distinct keys come from their <em>domain</em>: the distinct values the key columns
 * have in the one Columba table they come from ({@link ColumbaDistinctRowCount#tableDistinct}),
 * of which a side of {@code n} rows holds the expected distinct values of {@code n} draws
 * ({@link RelMdUtil#numDistinctVals}); and each side's count is capped by the other side's domain.
 * That cap is what a foreign key needs: lineitem's {@code l_orderkey} looks as if it had as many
 * values as its span (six million at scale factor 1), but it cannot have more than
 * {@code o_orderkey} has (1.5 million), so lineitem joined to orders filtered to 1% is estimated
 * at 1% of lineitem, not a quarter of that.
 *
 * <p>Deliberately not {@code getDistinctRowCount} of the sides: through joins, Calcite's handler for
 * it asks for the join's selectivity, which would ask for the inputs' distinct counts again, and
 * in the heuristic phases (where metadata is not memoized) that recursion is exponential in the
 * depth of the join tree. Column origins and row counts are linear.
 */
public final class JoinSelectivity {
    /** Calcite's guess for an equality ({@code RelMdUtil.guessSelectivity}). */
    private static final double UNTRACED_EQUALITY = 0.15;

    private JoinSelectivity() {
    }

    /**
     * The fraction of the cross product of {@code left} and {@code right} that
     * {@code leftKeys[i] = rightKeys[i]} for all {@code i} keeps, or empty when a side's keys do not
     * trace to one table with distinct counts.
     */
    public static OptionalDouble equiJoin(RelMetadataQuery mq, RelNode left, List<Integer> leftKeys, RelNode right,
                                          List<Integer> rightKeys) {
        OptionalDouble leftDomain = domain(mq, left, leftKeys);
        OptionalDouble rightDomain = domain(mq, right, rightKeys);
        if (leftDomain.isEmpty() || rightDomain.isEmpty()) {
            if (leftKeys.size() < 2) {
                return OptionalDouble.empty();
            }
            // Keys from several tables (a fact table joined to two dimensions at once): key by key.
            // A key that traces to no table on either side (TPC-H Q2's ps_supplycost =
            // MIN(ps_supplycost)) takes Calcite's guess for an equality, the others their
            // estimate: before, one such key sent the whole condition to the guesses (0.15 per
            // key), and Q2 estimated partsupp joined to its cheapest offers at 20 million rows
            // instead of about a thousand and built on supplier instead of on that join.
            double product = 1;
            boolean traced = false;
            for (int key = 0; key < leftKeys.size(); key++) {
                OptionalDouble one = equiJoin(mq, left, List.of(leftKeys.get(key)), right, List.of(rightKeys.get(key)));
                traced |= one.isPresent();
                product *= one.orElse(UNTRACED_EQUALITY);
            }
            return traced ? OptionalDouble.of(product) : OptionalDouble.empty();
        }
        double leftDistinct = distinctIn(mq, left, leftDomain.getAsDouble());
        double rightDistinct = distinctIn(mq, right, rightDomain.getAsDouble());
        leftDistinct = Math.min(leftDistinct, rightDomain.getAsDouble());
        rightDistinct = Math.min(rightDistinct, leftDomain.getAsDouble());
        return OptionalDouble.of(1 / Math.max(1, Math.max(leftDistinct, rightDistinct)));
    }

    /** The expected distinct values among {@code rel}'s rows, drawn from {@code domain} values. */
    private static double distinctIn(RelMetadataQuery mq, RelNode rel, double domain) {
        Double rows = mq.getRowCount(rel);
        if (rows == null) {
            return domain;
        }
        Double distinct = RelMdUtil.numDistinctVals(domain, rows);
        return distinct == null ? domain : Math.min(domain, distinct);
    }

    /** The distinct values of {@code keys} of {@code rel} in their one table, unfiltered; empty if not so traced. */
    private static OptionalDouble domain(RelMetadataQuery mq, RelNode rel, List<Integer> keys) {
        RelOptTable table = null;
        int[] columns = new int[keys.size()];
        for (int index = 0; index < keys.size(); index++) {
            RelColumnOrigin origin = mq.getColumnOrigin(rel, keys.get(index));
            if (origin == null || origin.isDerived()) {
                return OptionalDouble.empty();
            }
            if (table == null) {
                table = origin.getOriginTable();
            } else if (!table.getQualifiedName().equals(origin.getOriginTable().getQualifiedName())) {
                return OptionalDouble.empty();
            }
            columns[index] = origin.getOriginColumnOrdinal();
        }
        ColumbaTable columba = table == null ? null : table.unwrap(ColumbaTable.class);
        return columba == null ? OptionalDouble.empty() : ColumbaDistinctRowCount.tableDistinct(columba, columns);
    }
}

package dev.columba.planner.rel;

import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptCostFactory;
import org.apache.calcite.plan.RelOptUtil;

/**
 * The cost model's unit: pages read ({@code io}) and row operations ({@code cpu}), compared as
 * one number, {@code io + cpu}. A page read is worth a hundred row operations, so per-row costs
 * are fractions of a page (see each node's {@code computeSelfCost}). Calcite's own VolcanoCost
 * compares row counts only, which would make every plan with the same output size equally good.
 */
public final class ColumbaCost implements RelOptCost {
    public static final RelOptCostFactory FACTORY = new Factory();

    private static final ColumbaCost INFINITY = new ColumbaCost(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY,
            Double.POSITIVE_INFINITY);
    private static final ColumbaCost HUGE = new ColumbaCost(Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE);
    private static final ColumbaCost ZERO = new ColumbaCost(0, 0, 0);
    private static final ColumbaCost TINY = new ColumbaCost(1, 1, 0);

    private final double rows;
    private final double cpu;
    private final double io;

    ColumbaCost(double rows, double cpu, double io) {
        this.rows = rows;
        this.cpu = cpu;
        this.io = io;
    }

    private double total() {
        return io + cpu;
    }

    @Override
    public double getRows() {
        return rows;
    }

    @Override
    public double getCpu() {
        return cpu;
    }

    @Override
    public double getIo() {
        return io;
    }

    @Override
    public boolean isInfinite() {
        return this == INFINITY || Double.isInfinite(total());
    }

    @Override
    public boolean equals(RelOptCost other) {
        return other instanceof ColumbaCost that && total() == that.total();
    }

    @Override
    public boolean isEqWithEpsilon(RelOptCost other) {
        return other instanceof ColumbaCost that && Math.abs(total() - that.total()) < RelOptUtil.EPSILON;
    }

    @Override
    public boolean isLe(RelOptCost other) {
        return total() <= ((ColumbaCost) other).total();
    }

    @Override
    public boolean isLt(RelOptCost other) {
        return total() < ((ColumbaCost) other).total();
    }

    @Override
    public RelOptCost plus(RelOptCost other) {
        ColumbaCost that = (ColumbaCost) other;
        if (isInfinite() || that.isInfinite()) {
            return INFINITY;
        }
        return new ColumbaCost(rows + that.rows, cpu + that.cpu, io + that.io);
    }

    @Override
    public RelOptCost minus(RelOptCost other) {
        ColumbaCost that = (ColumbaCost) other;
        if (isInfinite()) {
            return this;
        }
        return new ColumbaCost(rows - that.rows, cpu - that.cpu, io - that.io);
    }

    @Override
    public RelOptCost multiplyBy(double factor) {
        if (isInfinite()) {
            return this;
        }
        return new ColumbaCost(rows * factor, cpu * factor, io * factor);
    }

    @Override
    public double divideBy(RelOptCost cost) {
        ColumbaCost that = (ColumbaCost) cost;
        return that.total() == 0 ? 1 : total() / that.total();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ColumbaCost that && rows == that.rows && cpu == that.cpu && io == that.io;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(total());
    }

    @Override
    public String toString() {
        return "{" + rows + " rows, " + cpu + " cpu, " + io + " io}";
    }

    private static final class Factory implements RelOptCostFactory {
        @Override
        public RelOptCost makeCost(double rowCount, double cpu, double io) {
            return new ColumbaCost(rowCount, cpu, io);
        }

        @Override
        public RelOptCost makeHugeCost() {
            return HUGE;
        }

        @Override
        public RelOptCost makeInfiniteCost() {
            return INFINITY;
        }

        @Override
        public RelOptCost makeTinyCost() {
            return TINY;
        }

        @Override
        public RelOptCost makeZeroCost() {
            return ZERO;
        }
    }
}

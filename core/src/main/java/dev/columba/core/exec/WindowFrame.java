package dev.columba.core.exec;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * The rows of its partition a window function reads for one row: {@code ROWS} bounds count rows
 * from the current one, {@code RANGE} bounds compare the order key's value with the current row's
 * (so a row's peers, the rows with its order key, are all in or all out). Standard SQL's default
 * is {@link #DEFAULT}: with ORDER BY, the partition's start to the current row's last peer;
 * without, every row is a peer, so the whole partition.
 *
 * @param rows ROWS (true) or RANGE (false)
 */
public record WindowFrame(boolean rows, Bound lower, Bound upper) {
    /** {@code RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW}. */
    public static final WindowFrame DEFAULT = new WindowFrame(false, Bound.UNBOUNDED_PRECEDING, Bound.CURRENT_ROW);

    public WindowFrame {
        Objects.requireNonNull(lower, "lower");
        Objects.requireNonNull(upper, "upper");
        if (lower.kind() == BoundKind.UNBOUNDED_FOLLOWING || upper.kind() == BoundKind.UNBOUNDED_PRECEDING) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a frame cannot start at UNBOUNDED FOLLOWING or end at "
                    + "UNBOUNDED PRECEDING, was " + lower + " to " + upper);
        }
        if (rows && (fractional(lower.offset()) || fractional(upper.offset()))) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a ROWS frame counts whole rows, was " + lower + " to " + upper);
        }
    }

    private static boolean fractional(BigDecimal offset) {
        return offset.signum() != 0 && offset.stripTrailingZeros().scale() > 0;
    }

    /** Where a bound lies. */
    public enum BoundKind { UNBOUNDED_PRECEDING, PRECEDING, CURRENT_ROW, FOLLOWING, UNBOUNDED_FOLLOWING }

    /**
     * One end of a frame: for PRECEDING and FOLLOWING, {@code offset} rows (ROWS) or the distance
     * in the order key's unit (RANGE: a number, or days for a DATE key); zero otherwise.
     */
    public record Bound(BoundKind kind, BigDecimal offset) {
        public static final Bound UNBOUNDED_PRECEDING = new Bound(BoundKind.UNBOUNDED_PRECEDING, BigDecimal.ZERO);
        public static final Bound CURRENT_ROW = new Bound(BoundKind.CURRENT_ROW, BigDecimal.ZERO);
        public static final Bound UNBOUNDED_FOLLOWING = new Bound(BoundKind.UNBOUNDED_FOLLOWING, BigDecimal.ZERO);

        public Bound {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(offset, "offset");
            if (offset.signum() < 0) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a frame offset must not be negative, was " + offset);
            }
        }

        public static Bound preceding(long offset) {
            return new Bound(BoundKind.PRECEDING, BigDecimal.valueOf(offset));
        }

        public static Bound following(long offset) {
            return new Bound(BoundKind.FOLLOWING, BigDecimal.valueOf(offset));
        }

        /** Whether the bound is a distance from the current row. */
        boolean hasOffset() {
            return kind == BoundKind.PRECEDING || kind == BoundKind.FOLLOWING;
        }

        @Override
        public String toString() {
            return switch (kind) {
                case UNBOUNDED_PRECEDING -> "UNBOUNDED PRECEDING";
                case PRECEDING -> offset.toPlainString() + " PRECEDING";
                case CURRENT_ROW -> "CURRENT ROW";
                case FOLLOWING -> offset.toPlainString() + " FOLLOWING";
                case UNBOUNDED_FOLLOWING -> "UNBOUNDED FOLLOWING";
            };
        }
    }

    @Override
    public String toString() {
        return (rows ? "ROWS" : "RANGE") + " BETWEEN " + lower + " AND " + upper;
    }
}

package dev.columba.core.stats;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** An immutable snapshot of {@link WaitCounters}: one {@link Wait} per {@link WaitType}, in the enum's order. */
public record WaitStats(List<Wait> waits) {
    public static final WaitStats NONE = of(new long[WaitType.values().length], new long[WaitType.values().length]);

    /** How often a thread waited for {@code type}, and for how long in all. */
    public record Wait(WaitType type, long count, long nanos) {
        public Wait {
            if (count < 0 || nanos < 0) {
                throw new IllegalArgumentException(type + ": a wait count and time are not negative, got " + count + " and "
                        + nanos);
            }
        }

        public double millis() {
            return nanos / 1e6;
        }
    }

    public WaitStats {
        waits = List.copyOf(waits);
        if (waits.size() != WaitType.values().length) {
            throw new IllegalArgumentException("one wait per type expected, got " + waits.size());
        }
        for (int index = 0; index < waits.size(); index++) {
            if (waits.get(index).type() != WaitType.values()[index]) {
                throw new IllegalArgumentException("waits out of the types' order at " + index + ": " + waits.get(index));
            }
        }
    }

    /** The waits of {@code counts} and {@code nanos}, indexed by {@link WaitType#ordinal()}. */
    static WaitStats of(long[] counts, long[] nanos) {
        List<Wait> waits = new ArrayList<>();
        for (WaitType type : WaitType.values()) {
            waits.add(new Wait(type, counts[type.ordinal()], nanos[type.ordinal()]));
        }
        return new WaitStats(waits);
    }

    public Wait get(WaitType type) {
        return waits.get(type.ordinal());
    }

    /** The waits gained since {@code earlier} (a snapshot of the same counters, taken before). */
    public WaitStats minus(WaitStats earlier) {
        long[] counts = new long[waits.size()];
        long[] nanos = new long[waits.size()];
        for (WaitType type : WaitType.values()) {
            counts[type.ordinal()] = get(type).count() - earlier.get(type).count();
            nanos[type.ordinal()] = get(type).nanos() - earlier.get(type).nanos();
        }
        return of(counts, nanos);
    }

    /** Up to {@code limit} types that were waited for, the longest total time first (then the most waits). */
    public List<Wait> top(int limit) {
        return waits.stream().filter(wait -> wait.count() > 0)
                .sorted(Comparator.comparingLong(Wait::nanos).reversed().thenComparing(Comparator.comparingLong(Wait::count)
                        .reversed()))
                .limit(limit).toList();
    }
}

package dev.columba.planner.rules;

/**
 * What a statement's {@code OPTION (...)} and the session's settings ask of the join rules.
 *
 * @param joinHint               LOOP JOIN, HASH JOIN, MERGE JOIN, or none
 * @param forceOrder             FORCE ORDER: joins stay in the order written
 * @param prefetch               the {@code prefetch} setting (trace flag 8744 turns it off)
 * @param prefetchThresholdRows  random prefetch when the outer side is estimated above this
 */
public record PlanHints(JoinHint joinHint, boolean forceOrder, boolean prefetch, int prefetchThresholdRows) {
    public enum JoinHint { NONE, LOOP, HASH, MERGE }

    /**
     * Whether a join of {@code type} may be a hash join: not under LOOP JOIN, and under MERGE
     * JOIN only where a merge join cannot do it (FULL: core's merge join returns no unmatched
     * right rows).
     */
    public boolean allowsHashJoin(org.apache.calcite.rel.core.JoinRelType type) {
        return switch (joinHint) {
            case NONE, HASH -> true;
            case LOOP -> false;
            case MERGE -> !dev.columba.planner.rel.ColumbaMergeJoin.supports(type);
        };
    }

    /** Whether an equi-join may be a (index) nested-loop join: not under HASH JOIN or MERGE JOIN. */
    public boolean allowsLoopJoin() {
        return joinHint == JoinHint.NONE || joinHint == JoinHint.LOOP;
    }

    public boolean allowsMergeJoin() {
        return joinHint == JoinHint.NONE || joinHint == JoinHint.MERGE;
    }
}

package dev.columba.planner.rules;

/**
 * What a statement's {@code OPTION (...)} and the session's settings ask of the join rules.
 *
 * @param joinHint               LOOP JOIN, HASH JOIN, or none
 * @param forceOrder             FORCE ORDER: joins stay in the order written
 * @param prefetch               the {@code prefetch} setting (trace flag 8744 turns it off)
 * @param prefetchThresholdRows  random prefetch when the outer side is estimated above this
 */
public record PlanHints(JoinHint joinHint, boolean forceOrder, boolean prefetch, int prefetchThresholdRows) {
    public enum JoinHint { NONE, LOOP, HASH }

    public boolean allowsHashJoin() {
        return joinHint != JoinHint.LOOP;
    }

    public boolean allowsLoopJoin() {
        return joinHint != JoinHint.HASH;
    }
}

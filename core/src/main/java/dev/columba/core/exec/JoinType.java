package dev.columba.core.exec;

/**
 * The joins the join operators perform; the left input is the probe (outer) side, the right input
 * the build side. SEMI and ANTI keep left rows; RIGHT_SEMI and RIGHT_ANTI are the same joins with
 * the preserved side built instead of probed (a small preserved side against a big other side: the
 * hash table holds the small one): the right rows are marked as the left rows find them, and are
 * returned once every left row is probed. FULL marks the right rows the same way and returns the
 * unmarked ones at the end, with NULL left columns; RIGHT does so too, without FULL's unmatched
 * left rows (a LEFT join with its preserved side built: the planner probes with the other side).
 */
public enum JoinType {
    /** Pairs of matching rows: left columns, then right columns. */
    INNER,
    /** INNER plus each left row without a match once, its right columns NULL. */
    LEFT,
    /** Each left row with at least one match, once; left columns only (EXISTS). */
    SEMI,
    /** Each left row without any match; left columns only (NOT EXISTS: a NULL key never matches, so its row is kept). */
    ANTI,
    /** Each right row with at least one match, once; right columns only (SEMI with the sides' roles swapped). */
    RIGHT_SEMI,
    /** Each right row without any match, right columns only; a right row with a NULL key is kept (ANTI with the roles swapped). */
    RIGHT_ANTI,
    /** LEFT plus each right row without a match once, its left columns NULL (a right row with a NULL key never matches). */
    FULL,
    /** INNER plus each right row without a match once, its left columns NULL (a right row with a NULL key never matches). */
    RIGHT;

    /** Whether the join returns rows of its right (build) input only. */
    boolean keepsRight() {
        return this == RIGHT_SEMI || this == RIGHT_ANTI;
    }

    /** Whether the join notes which right (build) rows matched, to return some of them once probing is done. */
    boolean marksBuild() {
        return this == RIGHT_SEMI || this == RIGHT_ANTI || this == FULL || this == RIGHT;
    }

    /** Whether the join returns each right row without a match, its left columns NULL. */
    boolean keepsUnmatchedRight() {
        return this == FULL || this == RIGHT;
    }

    /** Whether the join returns pairs of matching rows (left columns, then right columns). */
    boolean returnsPairs() {
        return this == INNER || this == LEFT || this == FULL || this == RIGHT;
    }

    /** Whether the join returns each left row without a match, its right columns NULL. */
    boolean keepsUnmatchedLeft() {
        return this == LEFT || this == FULL;
    }

    /** Whether the join returns rows of its left input only. */
    boolean keepsLeft() {
        return this == SEMI || this == ANTI;
    }
}

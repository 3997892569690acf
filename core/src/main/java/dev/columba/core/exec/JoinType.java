package dev.columba.core.exec;

/** The joins the join operators perform; the left input is the probe (outer) side. */
public enum JoinType {
    /** Pairs of matching rows: left columns, then right columns. */
    INNER,
    /** INNER plus each left row without a match once, its right columns NULL. */
    LEFT,
    /** Each left row with at least one match, once; left columns only (EXISTS). */
    SEMI,
    /** Each left row without any match; left columns only (NOT EXISTS: a NULL key never matches, so its row is kept). */
    ANTI
}

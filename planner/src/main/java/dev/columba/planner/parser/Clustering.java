package dev.columba.planner.parser;

import org.apache.calcite.sql.SqlWriter;

/**
 * Whether an index or primary key orders the table's rows themselves (CLUSTERED: the table becomes
 * a B+tree on the key) or is a separate structure pointing at them (NONCLUSTERED).
 */
public enum Clustering {
    /** Neither word was written: the statement's default applies, which the planner decides. */
    UNSPECIFIED,
    CLUSTERED,
    NONCLUSTERED;

    void unparse(SqlWriter writer) {
        switch (this) {
            case UNSPECIFIED -> { }
            case CLUSTERED -> writer.keyword("CLUSTERED");
            case NONCLUSTERED -> writer.keyword("NONCLUSTERED");
        }
    }
}

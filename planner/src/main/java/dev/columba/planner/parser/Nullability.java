package dev.columba.planner.parser;

import org.apache.calcite.sql.SqlWriter;

/** What a column definition says about NULL; UNSPECIFIED leaves it to the column's default. */
public enum Nullability {
    UNSPECIFIED,
    NULLABLE,
    NOT_NULL;

    void unparse(SqlWriter writer) {
        switch (this) {
            case UNSPECIFIED -> { }
            case NULLABLE -> writer.keyword("NULL");
            case NOT_NULL -> writer.keyword("NOT NULL");
        }
    }
}

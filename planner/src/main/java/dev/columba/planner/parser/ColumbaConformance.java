package dev.columba.planner.parser;

import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlDelegatingConformance;

/**
 * SQL Server 2008's conformance with what SQL Server users also write: {@code a % b},
 * {@code a != b}, INSERT into a subset of the columns (IDENTITY, computed and defaulted columns
 * fill themselves), {@code OFFSET n LIMIT m} as well as {@code LIMIT m OFFSET n}, and a select-list
 * alias in GROUP BY as PostgreSQL and DuckDB allow it (TPC-H Q15 as DuckDB ships it groups by
 * {@code supplier_no}, the alias of {@code l_suppkey}). The parser and
 * the validator must use the same instance, hence {@link ColumbaSqlParser#conformance()}.
 */
final class ColumbaConformance extends SqlDelegatingConformance {
    static final ColumbaConformance INSTANCE = new ColumbaConformance();

    private ColumbaConformance() {
        super(SqlConformanceEnum.SQL_SERVER_2008);
    }

    @Override
    public boolean isPercentRemainderAllowed() {
        return true;
    }

    @Override
    public boolean isBangEqualAllowed() {
        return true;
    }

    @Override
    public boolean isInsertSubsetColumnsAllowed() {
        return true;
    }

    @Override
    public boolean isOffsetLimitAllowed() {
        return true;
    }

    @Override
    public boolean isGroupByAlias() {
        return true;
    }
}

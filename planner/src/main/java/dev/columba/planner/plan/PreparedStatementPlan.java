package dev.columba.planner.plan;

import dev.columba.core.exec.Operator;
import dev.columba.core.schema.TableSchema;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;

/**
 * A planned statement: a query (SELECT, VALUES, WITH, set operations) or a modification (INSERT,
 * UPDATE, DELETE). Planning happens once; each execution instantiates a fresh operator tree.
 */
public interface PreparedStatementPlan {

    /**
     * The rows the statement produces: the query's columns, or one BIGINT "rows" for a modification
     * (its OUTPUT or RETURNING clause's columns if it has one, see {@link #returnsRows()}).
     */
    TableSchema schema();

    /**
     * The result columns that are a table's IDENTITY column as stored, passed up unchanged from its
     * scan (a copy; JDBC's {@code isAutoIncrement}). Empty when the plan does not know where its
     * columns come from, and for a column computed from the identity column.
     */
    default BitSet identityColumns() {
        return new BitSet();
    }

    /**
     * The result columns' labels as the query wrote them, one per column of {@link #schema()}:
     * {@code SELECT a.id, b.id} gives {@code id} twice where the schema, whose names are distinct,
     * says {@code id} and {@code id0} (JDBC's {@code getColumnLabel}, the wire protocol's field
     * names). The schema's names where the plan knows no better.
     */
    default List<String> columnLabels() {
        return names(schema());
    }

    /** The names of {@code schema}'s columns, in order. */
    static List<String> names(TableSchema schema) {
        return schema.columns().stream().map(dev.columba.core.schema.Column::name).toList();
    }

    /**
     * The object id of the columnstore table the statement changes, whose rowgroup figures the
     * session then gathers again (the planner reads no pages); empty for a rowstore target or no
     * change, so a write to a rowstore costs no catalog look-up after it. Fixed by the plan: a
     * table's organization and id change only through DDL, after which no plan made before is run.
     * A plan that writes a columnstore table must say so.
     */
    default java.util.OptionalInt columnstoreWritten() {
        return java.util.OptionalInt.empty();
    }

    /** Whether executing it changes data (and so needs a write transaction). */
    boolean modifies();

    /**
     * Whether its result is rows of {@link #schema()} rather than a count: a query, or a
     * modification with an OUTPUT or RETURNING clause (whose rows are all computed, and every
     * change made, by the operator's first {@code next()}).
     */
    default boolean returnsRows() {
        return !modifies();
    }

    /** Object ids of every table and index the statement reads or writes, for the session's locks. */
    int[] objectIds();

    /** Types of the statement's {@code ?} parameters, in order. */
    List<dev.columba.core.type.SqlType> parameterTypes();

    /** The physical plan as {@code EXPLAIN} prints it. */
    String explain();

    /**
     * Whether the plan may be kept and executed again for the same statement text while the schema,
     * the statistics and the settings that change plans stay as they were: false when executing it
     * depends on more than those (a system view's rows come from the catalog as read when planning;
     * an EXPLAIN's rows are its plan's text).
     */
    boolean reusable();

    /**
     * A new operator tree for one execution, with {@code parameters} bound (values in their Java
     * representation). For a modification, the operator performs the changes through
     * {@code environment.transaction()} and produces one row with the count of rows changed.
     */
    Operator instantiate(StatementEnvironment environment, List<Object> parameters);

    /**
     * Whether {@link #instantiateBatch} can run this statement for many parameter sets as one
     * execution: an INSERT of one row of literals and parameters ({@code INSERT INTO t VALUES (?, ?)}).
     * Other statements run a batch one execution per set.
     */
    boolean insertsOneRowPerParameterSet();

    /**
     * One operator tree that inserts the row of every parameter set, in order, and produces one row
     * with the count of rows inserted; only for a plan that {@link #insertsOneRowPerParameterSet()}.
     * A failure names the parameter set that caused it.
     */
    Operator instantiateBatch(StatementEnvironment environment, List<List<Object>> parameterSets);

    /**
     * The plan read as a {@link PointLookup} when it is one seek of a unique clustered key whose
     * row is the statement's result as is; empty for every other plan.
     */
    default Optional<PointLookup> pointLookup() {
        return Optional.empty();
    }
}

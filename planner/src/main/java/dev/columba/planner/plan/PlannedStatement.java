package dev.columba.planner.plan;

import dev.columba.core.exec.Operator;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.planner.rel.ColumbaProject;
import dev.columba.planner.rel.ColumbaRowstoreScan;
import dev.columba.planner.rel.ColumbaTableModify;
import dev.columba.planner.rel.Execution;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import dev.columba.planner.schema.ColumbaTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;

/**
 * A statement planned into Columba's physical convention. The plan was instantiated once while
 * planning (every expression translated, every operator constructed), which fixed its schema and
 * the EXPLAIN text; each execution instantiates it again with its environment and parameters.
 * Immutable and thread-safe: executions share nothing.
 */
final class PlannedStatement implements PreparedStatementPlan {
    private final RelNode root;
    private final RexBuilder rexBuilder;
    private final TableSchema schema;
    private final List<String> columnLabels;
    private final boolean modifies;
    private final int[] objectIds;
    private final List<SqlType> parameterTypes;
    private final String explain;
    private final boolean reusable;
    /** The plan as a point lookup, when it is one: found once here, used by every execution. */
    private final Optional<PointLookup> pointLookup;
    /** See {@link #identityColumns()}: found once here from the plan's column origins. */
    private final BitSet identityColumns;
    /** See {@link #columnstoreWritten()}: found once here. */
    private final OptionalInt columnstoreWritten;

    PlannedStatement(RelNode root, RexBuilder rexBuilder, TableSchema schema, List<String> columnLabels, boolean modifies,
                     int[] objectIds, List<SqlType> parameterTypes, String explain, boolean reusable) {
        if (columnLabels.size() != schema.size()) {
            throw new IllegalArgumentException(columnLabels.size() + " labels for " + schema.size() + " columns");
        }
        this.root = root;
        this.rexBuilder = rexBuilder;
        this.schema = schema;
        this.columnLabels = List.copyOf(columnLabels);
        this.modifies = modifies;
        this.objectIds = objectIds.clone();
        this.parameterTypes = List.copyOf(parameterTypes);
        this.explain = explain;
        this.reusable = reusable;
        this.pointLookup = pointLookupOf(root, schema, modifies);
        this.identityColumns = modifies ? new BitSet() : identityColumnsOf(root, schema.size());
        this.columnstoreWritten = modifies ? columnstoreWritten(root) : OptionalInt.empty();
    }

    /** The columnstore table {@code node} or a node below it changes, if any. */
    private static OptionalInt columnstoreWritten(RelNode node) {
        if (node instanceof ColumbaTableModify modify && modify.columnstoreWritten().isPresent()) {
            return modify.columnstoreWritten();
        }
        for (RelNode input : node.getInputs()) {
            OptionalInt written = columnstoreWritten(input);
            if (written.isPresent()) {
                return written;
            }
        }
        return OptionalInt.empty();
    }

    /** The physical plan (for tests that look at its metadata). */
    RelNode root() {
        return root;
    }

    /**
     * The output columns whose one origin, underived, is a table's IDENTITY column: through
     * projections that pick columns, filters, sorts, hash joins and group keys, as Calcite's column
     * origins (with {@code ColumbaColumnOrigins} for Columba's scans) trace them. A CAST or any
     * expression makes a column derived; a union of two tables' columns has two origins: neither is
     * reported. An index nested loop join has no origins handler, so its columns count as derived
     * (docs/design/jdbc.md).
     */
    private static BitSet identityColumnsOf(RelNode root, int columns) {
        BitSet identity = new BitSet();
        RelMetadataQuery metadata = root.getCluster().getMetadataQuery();
        for (int column = 0; column < columns; column++) {
            RelColumnOrigin origin = metadata.getColumnOrigin(root, column);
            if (origin == null || origin.isDerived()) {
                continue;
            }
            ColumbaTable table = origin.getOriginTable().unwrap(ColumbaTable.class);
            if (table != null && table.generated().identity() == origin.getOriginColumnOrdinal()) {
                identity.set(column);
            }
        }
        return identity;
    }

    @Override
    public BitSet identityColumns() {
        return (BitSet) identityColumns.clone();
    }

    /**
     * A point lookup for a plan that is a seek of a unique clustered key, alone or under a projection
     * that only picks its columns (no expression, filter or cast: the statement's columns are the
     * table's, of the same types).
     */
    private static Optional<PointLookup> pointLookupOf(RelNode root, TableSchema schema, boolean modifies) {
        if (modifies) {
            return Optional.empty();
        }
        RelNode below = root instanceof ColumbaProject project ? project.getInput() : root;
        if (!(below instanceof ColumbaRowstoreScan scan) || !scan.pointSeek()) {
            return Optional.empty();
        }
        int[] projection = scan.projection();
        // Per output column, the scan's column it is: the identity without a projection above.
        int[] picked = new int[schema.size()];
        if (root instanceof ColumbaProject project) {
            if (project.getProjects().size() != picked.length) {
                return Optional.empty();
            }
            for (int column = 0; column < picked.length; column++) {
                if (!(project.getProjects().get(column) instanceof RexInputRef reference)) {
                    return Optional.empty();
                }
                picked[column] = reference.getIndex();
            }
        } else if (projection.length == picked.length) {
            Arrays.setAll(picked, column -> column);
        } else {
            return Optional.empty();
        }
        TableSchema table = scan.rowstore().schema();
        for (int column = 0; column < picked.length; column++) {
            if (!table.column(projection[picked[column]]).type().equals(schema.column(column).type())) {
                return Optional.empty();
            }
        }
        boolean identity = picked.length == projection.length;
        for (int column = 0; identity && column < picked.length; column++) {
            identity = picked[column] == column;
        }
        if (identity) {
            return Optional.of(scan::lookUp);
        }
        return Optional.of((reader, query, parameters) -> {
            List<Object[]> read = scan.lookUp(reader, query, parameters);
            List<Object[]> rows = new ArrayList<>(read.size());
            for (Object[] scanned : read) {
                Object[] row = new Object[picked.length];
                for (int column = 0; column < picked.length; column++) {
                    row[column] = scanned[picked[column]];
                }
                rows.add(row);
            }
            return rows;
        });
    }

    /** This plan with its rows described by {@code columns} (as many, of the same types). */
    PlannedStatement withSchema(TableSchema columns) {
        return new PlannedStatement(root, rexBuilder, columns, PreparedStatementPlan.names(columns), modifies, objectIds,
                parameterTypes, explain, reusable);
    }

    @Override
    public List<String> columnLabels() {
        return columnLabels;
    }

    @Override
    public OptionalInt columnstoreWritten() {
        return columnstoreWritten;
    }

    @Override
    public TableSchema schema() {
        return schema;
    }

    @Override
    public boolean modifies() {
        return modifies;
    }

    @Override
    public boolean returnsRows() {
        return !modifies || root instanceof ColumbaTableModify modify && modify.returnsRows();
    }

    @Override
    public int[] objectIds() {
        return objectIds.clone();
    }

    @Override
    public List<SqlType> parameterTypes() {
        return parameterTypes;
    }

    @Override
    public String explain() {
        return explain;
    }

    @Override
    public boolean reusable() {
        return reusable;
    }

    @Override
    public Operator instantiate(StatementEnvironment environment, List<Object> parameters) {
        if (parameters.size() != parameterTypes.size()) {
            throw new dev.columba.core.error.ColumbaException(dev.columba.core.error.ErrorCode.INVALID_ARGUMENT,
                    "the statement has " + parameterTypes.size() + " parameters, " + parameters.size() + " values were given");
        }
        return Execution.of(environment, parameters, rexBuilder).instantiatePlan(root);
    }

    @Override
    public Optional<PointLookup> pointLookup() {
        return pointLookup;
    }

    @Override
    public boolean insertsOneRowPerParameterSet() {
        return root instanceof ColumbaTableModify modify && modify.insertsOneRow();
    }

    @Override
    public Operator instantiateBatch(StatementEnvironment environment, List<List<Object>> parameterSets) {
        if (!(root instanceof ColumbaTableModify modify) || !modify.insertsOneRow()) {
            throw new dev.columba.core.error.ColumbaException(dev.columba.core.error.ErrorCode.INTERNAL,
                    "the statement is not an INSERT of one row of values; run its parameter sets one at a time");
        }
        return modify.instantiateBatch(Execution.of(environment, List.of(), rexBuilder), parameterTypes, parameterSets);
    }
}

package dev.columba.planner.plan;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.planner.exec.TableModifyOperator;
import dev.columba.planner.parser.SqlDataChangeOutput;
import dev.columba.planner.parser.SqlMergeStatement;
import dev.columba.planner.schema.SqlTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.sql.validate.SqlValidatorUtil;

/**
 * The items of an OUTPUT or RETURNING clause ({@link SqlDataChangeOutput}) resolved to expressions
 * over the row of {@link TableModifyOperator#changeSchema}: the new row, the old row and MERGE's
 * {@code $action}, named here {@code inserted.<column>}, {@code deleted.<column>} and
 * {@code $action}. The items' column references are rewritten to those names, and the items
 * become the select list of a query over one row of that type, validated and converted by the
 * statement's own validator and converter (so that what the converter asks the validator about an
 * item, a CASE's type, it knows): {@code SELECT items FROM (VALUES (CAST(NULL AS type), ...)) AS
 * "$change" ("inserted.id", ...)}, whose projection's expressions are the items over the row.
 *
 * <ul>
 *   <li>OUTPUT (SQL Server): {@code inserted.c}, {@code deleted.c}, {@code inserted.*},
 *       {@code deleted.*}, {@code $action} in a MERGE. An INSERT has no {@code deleted} row, a
 *       DELETE no {@code inserted} one (SQL Server's Msg 4104, "could not be bound"); a column
 *       without {@code inserted.} or {@code deleted.} is refused (a MERGE's source columns too).</li>
 *   <li>RETURNING (PostgreSQL): {@code c}, {@code t.c}, {@code *}, {@code t.*} with {@code t} the
 *       table's name or alias name the new row (for DELETE the old one). PostgreSQL 18's
 *       {@code old.c} and {@code new.c} are not read (OLD and NEW are reserved words here).</li>
 * </ul>
 * Items are expressions over that one row: an aggregate, a window function, a sub-query or a
 * parameter is refused (SQL Server refuses the first three as well).
 */
final class OutputItems {
    /** The resolved clause: one expression per result column, the columns' labels and row type. */
    record Resolved(List<RexNode> expressions, List<String> labels, RelDataType rowType) {
        Resolved {
            expressions = List.copyOf(expressions);
            labels = List.copyOf(labels);
        }
    }

    private static final String ACTION = "$action";

    private final SqlDataChangeOutput clause;
    private final TableModifyOperator.Kind kind;
    private final RelDataType tableRowType;
    /** The names that qualify a RETURNING column as the statement's own row: the table's name and alias. */
    private final List<String> tableNames;

    private OutputItems(SqlDataChangeOutput clause, RelDataType tableRowType) {
        this.clause = clause;
        this.tableRowType = tableRowType;
        List<String> names = new ArrayList<>();
        SqlNode statement = clause.statement();
        SqlNode target;
        SqlIdentifier alias;
        switch (statement) {
            case SqlInsert insert -> {
                kind = TableModifyOperator.Kind.INSERT;
                target = insert.getTargetTable();
                alias = null;
            }
            case SqlUpdate update -> {
                kind = TableModifyOperator.Kind.UPDATE;
                target = update.getTargetTable();
                alias = update.getAlias();
            }
            case SqlDelete delete -> {
                kind = TableModifyOperator.Kind.DELETE;
                target = delete.getTargetTable();
                alias = delete.getAlias();
            }
            case SqlMergeStatement merge -> {
                kind = TableModifyOperator.Kind.MERGE;
                target = merge.target();
                alias = null;
                names.add(merge.targetName());
            }
            default -> throw new ColumbaException(ErrorCode.INTERNAL, "OUTPUT of " + statement.getKind());
        }
        if (target instanceof SqlIdentifier identifier) {
            names.add(identifier.names.getLast());
        }
        if (alias != null) {
            names.add(alias.getSimple());
        }
        this.tableNames = names;
    }

    /**
     * Resolves {@code clause}'s items against the modified table's row type {@code tableRowType},
     * with {@code row} converting expressions over {@link #changeRowType}.
     *
     * @throws ColumbaException UNDEFINED_COLUMN for a column the rows do not have, INVALID_STATEMENT
     *     for an item that is not an expression over one changed row
     */
    static Resolved resolve(SqlDataChangeOutput clause, RelDataType tableRowType, SqlValidator validator,
                            SqlToRelConverter converter) {
        OutputItems items = new OutputItems(clause, tableRowType);
        RelDataTypeFactory typeFactory = validator.getTypeFactory();
        List<SqlNode> expressions = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        for (SqlNode item : clause.items()) {
            SqlNode expression = item.getKind() == SqlKind.AS ? ((SqlBasicCall) item).operand(0) : item;
            if (expression instanceof SqlIdentifier identifier && identifier.isStar()) {
                String image = items.starImage(identifier);
                for (RelDataTypeField field : tableRowType.getFieldList()) {
                    expressions.add(column(image, field.getName(), identifier.getParserPosition()));
                    labels.add(field.getName());
                }
                continue;
            }
            items.refuseNonRowExpressions(expression);
            expressions.add(items.rewrite(expression));
            labels.add(ColumnLabels.label(item));
        }
        RelDataType changeRowType = items.changeRowType(typeFactory);
        SqlSelect select = overOneRow(expressions, changeRowType, clause.getParserPosition());
        SqlSelect validated = (SqlSelect) validator.validate(select);
        for (SqlNode expression : validated.getSelectList()) {
            items.refuseNonRowExpressions(expression);
        }
        RelNode rel = converter.convertQuery(validated, false, true).rel;
        List<RexNode> converted;
        if (rel instanceof Project project && project.getInput() instanceof Values
                && project.getInput().getRowType().getFieldCount() == changeRowType.getFieldCount()) {
            converted = project.getProjects();
        } else if (rel instanceof Values constants && constants.getTuples().size() == 1) {
            // Items that read no column: the converter folds them into one row of literals.
            converted = List.copyOf(constants.getTuples().getFirst());
        } else {
            throw new ColumbaException(ErrorCode.INTERNAL, clause.style() + " items did not convert to expressions over"
                    + " one row: " + org.apache.calcite.plan.RelOptUtil.toString(rel));
        }
        List<RelDataType> types = converted.stream().map(RexNode::getType).toList();
        RelDataType rowType = typeFactory.createStructType(types, SqlValidatorUtil.uniquify(labels,
                SqlValidatorUtil.EXPR_SUGGESTER, false));
        return new Resolved(converted, labels, rowType);
    }

    /** {@code SELECT expressions FROM (VALUES (CAST(NULL AS type), ...)) AS "$change" (names)}: the row as a table. */
    private static SqlSelect overOneRow(List<SqlNode> expressions, RelDataType changeRowType, SqlParserPos position) {
        List<SqlNode> nulls = new ArrayList<>();
        List<SqlNode> aliasAndNames = new ArrayList<>();
        aliasAndNames.add(null);
        aliasAndNames.add(new SqlIdentifier("$change", position));
        for (RelDataTypeField field : changeRowType.getFieldList()) {
            nulls.add(SqlStdOperatorTable.CAST.createCall(position, SqlLiteral.createNull(position),
                    SqlTypeUtil.convertTypeToSpec(field.getType())));
            aliasAndNames.add(new SqlIdentifier(field.getName(), position));
        }
        aliasAndNames.set(0, SqlStdOperatorTable.VALUES.createCall(position,
                SqlStdOperatorTable.ROW.createCall(position, nulls)));
        SqlNode from = SqlStdOperatorTable.AS.createCall(position, aliasAndNames);
        return new SqlSelect(position, null, new SqlNodeList(expressions, position), from, null, null, null, null,
                null, null, null, null, null);
    }

    /** The row type of {@link TableModifyOperator#changeSchema} for this statement's kind. */
    private RelDataType changeRowType(RelDataTypeFactory typeFactory) {
        RelDataTypeFactory.Builder builder = typeFactory.builder();
        boolean newRow = kind == TableModifyOperator.Kind.INSERT || kind == TableModifyOperator.Kind.UPDATE;
        boolean oldRow = kind == TableModifyOperator.Kind.DELETE || kind == TableModifyOperator.Kind.UPDATE;
        for (String image : List.of("inserted", "deleted")) {
            boolean present = image.equals("inserted") ? newRow : oldRow;
            for (RelDataTypeField field : tableRowType.getFieldList()) {
                RelDataType type = present ? field.getType() : typeFactory.createTypeWithNullability(field.getType(), true);
                builder.add(image + "." + field.getName(), type);
            }
        }
        builder.add(ACTION, SqlTypes.toRelType(TableModifyOperator.ACTION_TYPE, kind != TableModifyOperator.Kind.MERGE,
                typeFactory));
        return builder.build();
    }

    /** The image ({@code inserted} or {@code deleted}) a {@code *} or {@code q.*} item expands. */
    private String starImage(SqlIdentifier star) {
        if (star.names.size() == 1) {
            if (clause.style() == SqlDataChangeOutput.Style.OUTPUT) {
                throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "OUTPUT * does not say which row: write"
                        + " inserted.* or deleted.*" + at(star.getParserPosition()));
            }
            return defaultImage();
        }
        if (star.names.size() != 2) {
            throw unbound(star);
        }
        return image(star, star.names.getFirst());
    }

    /** The row RETURNING's unqualified columns name: the new one, for DELETE the old one. */
    private String defaultImage() {
        return kind == TableModifyOperator.Kind.DELETE ? "deleted" : "inserted";
    }

    /** The image {@code qualifier} names in {@code reference}. */
    private String image(SqlIdentifier reference, String qualifier) {
        String lower = qualifier.toLowerCase(Locale.ROOT);
        if (clause.style() == SqlDataChangeOutput.Style.OUTPUT) {
            boolean available = switch (lower) {
                case "inserted" -> kind != TableModifyOperator.Kind.DELETE;
                case "deleted" -> kind != TableModifyOperator.Kind.INSERT;
                default -> false;
            };
            if (!available) {
                throw unbound(reference);
            }
            return lower;
        }
        for (String name : tableNames) {
            if (name.equalsIgnoreCase(qualifier)) {
                return defaultImage();
            }
        }
        throw unbound(reference);
    }

    private ColumbaException unbound(SqlIdentifier reference) {
        String expected = clause.style() == SqlDataChangeOutput.Style.RETURNING
                ? "RETURNING names the table's columns, unqualified or qualified by the table's name or alias"
                : switch (kind) {
                    case INSERT -> "an INSERT's OUTPUT names its rows as inserted";
                    case DELETE -> "a DELETE's OUTPUT names its rows as deleted";
                    case UPDATE -> "an UPDATE's OUTPUT names its rows as inserted and deleted";
                    case MERGE -> "a MERGE's OUTPUT names its rows as inserted and deleted, and $action (not the"
                            + " source's columns)";
                };
        return new ColumbaException(ErrorCode.UNDEFINED_COLUMN, "The multi-part identifier \"" + reference
                + "\" could not be bound: " + expected + at(reference.getParserPosition()));
    }

    /** {@code expression} with its column references named as {@link #changeRowType} names them. */
    private SqlNode rewrite(SqlNode expression) {
        return expression.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier identifier) {
                SqlParserPos position = identifier.getParserPosition();
                if (identifier.names.size() == 1) {
                    String name = identifier.getSimple();
                    if (name.equalsIgnoreCase(ACTION)) {
                        if (kind != TableModifyOperator.Kind.MERGE || clause.style() != SqlDataChangeOutput.Style.OUTPUT) {
                            throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "$action is only known in a MERGE's"
                                    + " OUTPUT clause" + at(position));
                        }
                        return new SqlIdentifier(ACTION, position);
                    }
                    if (clause.style() == SqlDataChangeOutput.Style.OUTPUT) {
                        throw new ColumbaException(ErrorCode.UNDEFINED_COLUMN, "Invalid column name '" + name + "': an"
                                + " OUTPUT clause names columns as inserted." + name + " or deleted." + name + at(position));
                    }
                    return column(defaultImage(), tableColumn(name, identifier), position);
                }
                if (identifier.names.size() != 2) {
                    throw unbound(identifier);
                }
                return column(image(identifier, identifier.names.getFirst()),
                        tableColumn(identifier.names.getLast(), identifier), position);
            }
        });
    }

    /** The table's column called {@code name} (ignoring case), as the table spells it. */
    private String tableColumn(String name, SqlIdentifier reference) {
        RelDataTypeField field = tableRowType.getField(name, false, false);
        if (field == null) {
            throw new ColumbaException(ErrorCode.UNDEFINED_COLUMN, "Invalid column name '" + name + "' in "
                    + clause.style() + " item " + reference + at(reference.getParserPosition()));
        }
        return field.getName();
    }

    private static SqlIdentifier column(String image, String column, SqlParserPos position) {
        return new SqlIdentifier(image + "." + column, position);
    }

    /**
     * Refuses what is no expression over one row: aggregates, window functions, sub-queries,
     * parameters. Called before validation (sub-queries, parameters) and after it (aggregates,
     * whose functions only validation resolves).
     */
    private void refuseNonRowExpressions(SqlNode expression) {
        expression.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (call instanceof SqlSelect || call.getKind() == SqlKind.OVER || call.getOperator().isAggregator()
                        || call.getKind() == SqlKind.EXISTS || call.getKind() == SqlKind.SCALAR_QUERY) {
                    throw new ColumbaException(ErrorCode.INVALID_STATEMENT, clause.style() + " items are expressions"
                            + " over the changed row: aggregates, window functions and sub-queries are not allowed"
                            + " there" + at(call.getParserPosition()));
                }
                return super.visit(call);
            }

            @Override
            public SqlNode visit(SqlDynamicParam param) {
                throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "a parameter in an " + clause.style()
                        + " item is not supported" + at(param.getParserPosition()));
            }
        });
    }

    private static String at(SqlParserPos position) {
        return " (line " + position.getLineNum() + ", column " + position.getColumnNum() + ")";
    }
}

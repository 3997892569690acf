package dev.columba.planner.rel;

import dev.columba.core.exec.JoinType;
import dev.columba.core.exec.Operator;
import dev.columba.core.exec.ProjectOperator;
import dev.columba.core.expr.Expr;
import dev.columba.core.expr.TypeRules;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rex.RexNode;

/** What the join nodes share: join types, key casts, residual conditions. */
final class Joins {
    private Joins() {
    }

    /** Core's join type for Calcite's; RIGHT has none (the logical phase turns RIGHT joins into LEFT ones). */
    static JoinType joinType(JoinRelType type) {
        return switch (type) {
            case INNER -> JoinType.INNER;
            case LEFT -> JoinType.LEFT;
            case SEMI -> JoinType.SEMI;
            case ANTI -> JoinType.ANTI;
            case FULL -> JoinType.FULL;
            default -> throw ExpressionTranslator.unsupported(type + " JOIN");
        };
    }

    static boolean supported(JoinRelType type) {
        return type == JoinRelType.INNER || type == JoinRelType.LEFT || type == JoinRelType.SEMI || type == JoinRelType.ANTI
                || type == JoinRelType.FULL;
    }

    /** {@code input} with column {@code column} cast to {@code type} (same name, same position). */
    static Operator castColumn(Operator input, int column, SqlType type) {
        TableSchema schema = input.schema();
        List<Expr> expressions = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int index = 0; index < schema.size(); index++) {
            Column field = schema.column(index);
            Expr reference = new Expr.ColumnReference(index, field.type());
            expressions.add(index == column ? new Expr.Cast(reference, type) : reference);
            names.add(field.name());
        }
        return new ProjectOperator(input, expressions, names);
    }

    /** The type both sides of an equi-join key are hashed in: their common type if their vectors differ. */
    static SqlType keyType(SqlType left, SqlType right) {
        return left.arrowType().equals(right.arrowType()) ? null : TypeRules.commonType(left, right);
    }

    /** An equi-join's two inputs, as its keys are compared: each key pair in one type ({@link #keyType}). */
    record Inputs(Operator left, Operator right) {
        /**
         * These inputs with the key pair {@code leftColumn}, {@code rightColumn} cast to their common
         * type where their vectors differ (a widening cast, so it keeps an order by the key too).
         */
        Inputs withCommonKeyType(int leftColumn, int rightColumn) {
            SqlType leftType = left.schema().column(leftColumn).type();
            SqlType rightType = right.schema().column(rightColumn).type();
            SqlType common = keyType(leftType, rightType);
            if (common == null) {
                return this;
            }
            return new Inputs(leftType.equals(common) ? left : castColumn(left, leftColumn, common),
                    rightType.equals(common) ? right : castColumn(right, rightColumn, common));
        }
    }

    /** A condition over the left columns then the right ones, or null when it is always true. */
    static Expr condition(Execution execution, RexNode condition, TableSchema left, TableSchema right) {
        if (condition == null || condition.isAlwaysTrue()) {
            return null;
        }
        return execution.translator(Execution.concat(left, right)).translate(condition);
    }
}

package dev.columba.planner.rel;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

/**
 * A range of a clustered key pushed into a scan: equal values for the first {@code prefix.size()}
 * key columns, then optional bounds on the next one. Values are literals or dynamic parameters,
 * resolved when the scan is instantiated.
 *
 * @param low  bound on key column {@code prefix.size()}, or null for none
 * @param high bound on key column {@code prefix.size()}, or null for none
 */
public record KeyRange(List<RexNode> prefix, RexNode low, boolean lowInclusive, RexNode high, boolean highInclusive) {
    public KeyRange {
        prefix = List.copyOf(prefix);
        if (prefix.isEmpty() && low == null && high == null) {
            throw new IllegalArgumentException("a key range needs a prefix or a bound");
        }
    }

    /** The range as SQL over the key columns' names, for EXPLAIN. */
    public String describe(List<String> keyNames) {
        List<String> parts = new ArrayList<>();
        for (int index = 0; index < prefix.size(); index++) {
            parts.add(keyNames.get(index) + " = " + text(prefix.get(index)));
        }
        String column = prefix.size() < keyNames.size() ? keyNames.get(prefix.size()) : "?";
        if (low != null) {
            parts.add(column + (lowInclusive ? " >= " : " > ") + text(low));
        }
        if (high != null) {
            parts.add(column + (highInclusive ? " <= " : " < ") + text(high));
        }
        return String.join(" AND ", parts);
    }

    static String text(RexNode value) {
        return switch (value) {
            case RexLiteral literal -> literal.isNull() ? "NULL" : literalText(literal);
            case RexDynamicParam parameter -> "?" + (parameter.getIndex() + 1);
            default -> value.toString();
        };
    }

    private static String literalText(RexLiteral literal) {
        Object value = ExpressionTranslator.literalValue(literal, dev.columba.planner.schema.SqlTypes.fromRelType(literal.getType()));
        return value instanceof String string ? "'" + string.stripTrailing() + "'" : String.valueOf(value);
    }
}

package dev.columba.planner.parser;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWriter;

/** Writes {@code (a, b, ...)}: column lists, key lists and option lists of the DDL nodes. */
final class ParenthesizedList {
    private ParenthesizedList() {
    }

    static void unparse(SqlWriter writer, List<? extends SqlNode> nodes) {
        SqlWriter.Frame frame = writer.startList("(", ")");
        for (SqlNode node : nodes) {
            writer.sep(",");
            node.unparse(writer, 0, 0);
        }
        writer.endList(frame);
    }
}

package dev.columba.jdbc;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.planner.session.Engine;

/**
 * The planner every engine the driver opens plans queries and modifications with. This build of
 * the planner module has no query planner yet ({@code dev.columba.planner.plan.QueryPlanner}), so
 * every statement that needs one fails with a message that says so; DDL and session commands do
 * not come here and work.
 */
final class StandardPlanner {
    private StandardPlanner() {
    }

    static Engine.StatementPlanner get() {
        return (catalog, settings, statement) -> {
            throw new ColumbaException(ErrorCode.INTERNAL, "this build of Columba has no query planner yet: queries,"
                    + " INSERT, UPDATE and DELETE cannot run (statement kind " + statement.getKind() + ")");
        };
    }
}

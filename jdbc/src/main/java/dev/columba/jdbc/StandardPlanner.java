package dev.columba.jdbc;

import dev.columba.planner.plan.QueryPlanner;
import dev.columba.planner.session.Engine;

/** The planner every engine the driver opens plans queries and modifications with: a new {@link QueryPlanner} per statement. */
final class StandardPlanner {
    private StandardPlanner() {
    }

    static Engine.StatementPlanner get() {
        return (catalog, settings, statement, cancel) -> new QueryPlanner(catalog, settings, cancel).plan(statement);
    }
}

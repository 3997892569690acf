package dev.columba.jdbc;

import dev.columba.planner.plan.QueryPlanner;
import dev.columba.planner.session.Engine;

/** The planner every engine the driver opens plans queries and modifications with: a new {@link QueryPlanner} per statement. */
final class StandardPlanner {
    private StandardPlanner() {
    }

    static Engine.StatementPlanner get() {
        return (catalog, settings, statement) -> new QueryPlanner(catalog, settings).plan(statement);
    }
}

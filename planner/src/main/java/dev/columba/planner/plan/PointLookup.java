package dev.columba.planner.plan;

import dev.columba.core.context.QueryContext;
import dev.columba.storage.buffer.PageReader;
import java.util.List;

/**
 * A query whose plan is one seek of a unique clustered key (see {@code ColumbaRowstoreScan.pointSeek}),
 * read without its operator tree: the row comes from the leaf as Java values, not through an
 * Arrow batch. The session runs it instead of instantiating the plan unless the setting
 * {@code direct_lookups} is off; rows, types and the pages read and counted are the plan's.
 */
@FunctionalInterface
public interface PointLookup {
    /**
     * The plan's rows (none or one; more only if storage breaks the key's uniqueness) with
     * {@code parameters} bound, each a new array of the plan's columns. Reads go through
     * {@code reader} and are charged to the table in {@code query}'s statistics.
     */
    List<Object[]> read(PageReader reader, QueryContext query, List<Object> parameters);
}

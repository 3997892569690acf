/**
 * The catalog as Calcite sees it: schemas, tables with their statistics for the cost model, and
 * the mapping between Columba's and Calcite's types. Reads storage; plans nothing.
 */
package dev.columba.planner.schema;

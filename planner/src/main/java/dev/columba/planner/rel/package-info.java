/**
 * Columba's physical convention: the relational nodes the optimizer chooses among (scans per
 * storage kind, filter, project, hash aggregate, hash, nested-loop and index nested-loop joins,
 * sort, union, values, the generate_series table function, table modification), their costs and
 * row estimates from table statistics, and their translation into core's operators and
 * expressions. It does not choose plans (rules).
 */
package dev.columba.planner.rel;

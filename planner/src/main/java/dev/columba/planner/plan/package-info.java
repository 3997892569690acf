/**
 * Query and DML planning over Calcite: validation, conversion to relational algebra, Columba's
 * physical convention and rules, costs from real statistics, translation into operators. Knows
 * tables through {@link dev.columba.planner.plan.PlannerCatalog}, runs statements through a
 * {@link dev.columba.planner.plan.StatementEnvironment} the session provides.
 */
package dev.columba.planner.plan;

/**
 * Seed reproductions through SQL, run by the planner's sessions: seed 000's cold range scan and
 * nested-loop join with read-ahead and prefetch on and off (optionally under background reads, as
 * the article ran diskspd), and seed 003's OLTP workload on a table several times the buffer pool.
 * It owns the suites' tables, their loaders, the background load and the suites' report sections,
 * not the engine it measures.
 */
package dev.columba.bench.sql;

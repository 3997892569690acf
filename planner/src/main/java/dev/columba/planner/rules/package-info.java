/**
 * The optimizer's rules, one per class: logical nodes to Columba's physical nodes, and pushdowns
 * into scans (key ranges, index seeks, columnstore filters, projections) and index nested-loop
 * joins with random prefetch. Rules decide shapes; costs are the nodes' business.
 */
package dev.columba.planner.rules;

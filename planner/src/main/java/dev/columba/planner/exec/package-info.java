/**
 * The operators that touch storage, which core cannot know: rowstore scans and seeks as row
 * sources, the columnstore scan as a batch operator, the index nested-loop join with random
 * prefetch, and INSERT/UPDATE/DELETE. Every read is charged to the statement's counters under the
 * table's name.
 */
package dev.columba.planner.exec;

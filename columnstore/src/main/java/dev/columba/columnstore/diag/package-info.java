/**
 * Dictionary-pressure diagnostics of columnstore tables: what trims rowgroups, what it costs a cold
 * scan, what to do, and what-if simulations of other settings from metadata alone.
 */
package dev.columba.columnstore.diag;

/** The per-statement context (settings and statistics) that operators pass to storage. */
package dev.columba.core.context;

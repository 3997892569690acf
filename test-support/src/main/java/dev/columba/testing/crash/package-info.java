/**
 * Crash harness: a program run in a child JVM and killed with SIGKILL at a moment the caller picks
 * (a line the child printed, or a delay), and the durable acknowledgement file through which the
 * child says which units of work returned. Owns the processes and the protocol; the workload and
 * what is checked after a reopen belong to the callers.
 */
package dev.columba.testing.crash;

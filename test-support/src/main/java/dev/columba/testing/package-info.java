/**
 * Test support shared by every module's tests and by the reliability bench. Knows nothing of the
 * engine, so any module can depend on it; what a harness runs is the caller's.
 */
package dev.columba.testing;

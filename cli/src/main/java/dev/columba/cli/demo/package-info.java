/** {@code columba demo}: the demonstration of what the engine does today. */
package dev.columba.cli.demo;

/**
 * The bench runner ({@code ./columba bench <suite>}): parses options, prepares a suite's data,
 * runs its JMH benchmarks in forks that get Columba's JVM options, and writes JMH's JSON and a
 * Markdown report with its charts to {@code bench/results/<timestamp>/}, which
 * {@code ./columba bench report <dir>} can write again from the JSON. The benchmarks themselves live
 * in subpackages mirroring the source packages they measure.
 */
package dev.columba.bench;

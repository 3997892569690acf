/**
 * Columba's SQL parser: Calcite's grammar extended through its parser templates with SQL Server's
 * DDL, session commands and query hints (src/main/codegen), the SqlNode classes those statements
 * parse to, and the {@link dev.columba.planner.parser.ColumbaSqlParser} facade with the one parser
 * configuration. It does not validate names or types against a catalog, nor execute anything.
 */
package dev.columba.planner.parser;

/**
 * The parser JavaCC generates at build time from Calcite's Parser.jj and Columba's
 * src/main/codegen (config.fmpp, includes/parserImpls.ftl). Nothing here is written by hand; use
 * {@link dev.columba.planner.parser.ColumbaSqlParser}, not this package.
 */
package dev.columba.planner.parser.impl;

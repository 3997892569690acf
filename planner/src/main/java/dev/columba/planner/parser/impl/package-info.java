/**
 * The parser JavaCC generates at build time from Calcite's Parser.jj and Columba's
 * src/main/codegen (config.fmpp, includes/parserImpls.ftl), and {@link dev.columba.planner.parser.impl.ColumbaTokens},
 * the one hand-written class, which adjusts the generated token manager. Use
 * {@link dev.columba.planner.parser.ColumbaSqlParser}, not this package.
 */
package dev.columba.planner.parser.impl;

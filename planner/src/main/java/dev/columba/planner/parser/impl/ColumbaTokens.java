package dev.columba.planner.parser.impl;

import org.apache.calcite.sql.parser.SqlParserImplFactory;

/**
 * The generated token manager with one change: the word {@code VALUE} is an identifier, never
 * Calcite's keyword. SQL Server and PostgreSQL let {@code value} name a column or an alias (TPC-H
 * Q11 orders by {@code value}), but making VALUE one of the grammar's non-reserved keywords is not
 * enough: wherever a query or an expression may start ({@code SUM(value)}, {@code (value > 1)}),
 * Calcite's grammar takes VALUE as the start of MySQL's {@code VALUE (row)} table constructor and
 * fails. Columba's grammar has no other use for the keyword: the table constructor is not allowed by
 * its conformance, and the JSON predicates ({@code IS JSON VALUE}) and sequences ({@code NEXT VALUE
 * FOR}) that also spell it are not supported.
 */
public final class ColumbaTokens extends ColumbaSqlParserImplTokenManager {
    /** Calcite's parser for Columba's grammar, reading {@code VALUE} as an identifier. */
    public static final SqlParserImplFactory PARSER_FACTORY = reader -> {
        ColumbaSqlParserImpl parser = (ColumbaSqlParserImpl) ColumbaSqlParserImpl.FACTORY.getParser(reader);
        parser.ReInit(new ColumbaTokens(parser.jj_input_stream));
        return parser;
    };

    private ColumbaTokens(SimpleCharStream stream) {
        super(stream);
    }

    @Override
    public Token getNextToken() {
        Token token = super.getNextToken();
        if (token.kind == VALUE) {
            token.kind = IDENTIFIER;
        }
        return token;
    }
}

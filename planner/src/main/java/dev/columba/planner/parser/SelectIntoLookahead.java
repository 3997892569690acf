package dev.columba.planner.parser;

import dev.columba.planner.parser.impl.ColumbaSqlParserImpl;
import dev.columba.planner.parser.impl.ColumbaSqlParserImplConstants;
import dev.columba.planner.parser.impl.Token;

/**
 * Tells a SELECT ... INTO statement from a query before either is parsed: JavaCC cannot, as INTO
 * comes after a select list of any length. The parser's semantic lookahead calls this (a method
 * of another class, since the grammar's own JAVACODE methods declare ParseException, which
 * lookahead code may not throw).
 */
public final class SelectIntoLookahead implements ColumbaSqlParserImplConstants {
    private SelectIntoLookahead() {
    }

    /**
     * Whether the tokens ahead are {@code SELECT <select list> INTO}: INTO at parenthesis depth 0
     * before anything that ends a select list (FROM, WHERE, a set operator, the statement's end).
     *
     * <p>The scan follows the tokens' {@code next} links, reading a token from the token manager
     * where the chain ends, as {@code getToken} does. It must not call {@code getToken(index)} per
     * token: that walks the chain from the start each time, and made a select list of n items
     * take time in n squared ({@code SELECT (0, 1, ..., 32000)} parsed in 8 s, issue 15).
     */
    public static boolean intoFollows(ColumbaSqlParserImpl parser) {
        Token token = parser.getToken(1);
        if (token.kind != SELECT) {
            return false;
        }
        int depth = 0;
        while (true) {
            if (token.next == null) {
                token.next = parser.token_source.getNextToken();
            }
            token = token.next;
            switch (token.kind) {
                case EOF, SEMICOLON -> {
                    return false;
                }
                case LPAREN -> depth++;
                case RPAREN -> {
                    depth--;
                    if (depth < 0) {
                        return false;
                    }
                }
                case INTO -> {
                    if (depth == 0) {
                        return true;
                    }
                }
                case FROM, WHERE, GROUP, HAVING, ORDER, UNION, EXCEPT, INTERSECT, OPTION -> {
                    if (depth == 0) {
                        return false;
                    }
                }
                default -> {
                }
            }
        }
    }
}

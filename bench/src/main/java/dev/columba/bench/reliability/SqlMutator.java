package dev.columba.bench.reliability;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Grammar-aware mutation of SQL: a statement is cut into tokens (names, numbers, strings,
 * operators, parentheses), then one to three mutations change it at the token level, each keeping
 * the statement's shape where it can: a literal is replaced by another literal, a name by a name,
 * an operator by an operator, a parenthesised sub-expression by another expression; besides these,
 * tokens are dropped, doubled or swapped and keywords put where they do not belong. About half the
 * results still parse, so that mutations reach the planner and the executor as well as the parser.
 *
 * <p>Each statement is a function of its own random generator only: the campaign makes the
 * generator of statement {@code n} from the run's seed and {@code n}, so any statement is replayed
 * from those two numbers alone.
 */
final class SqlMutator {
    private SqlMutator() {
    }

    /** The kind of a token, which decides what may replace it. */
    enum Kind { NAME, NUMBER, STRING, OPERATOR, OPEN, CLOSE, OTHER }

    record Token(Kind kind, String text) {
    }

    /** Statement {@code index} of the run with {@code seed}. */
    static String statement(long seed, long index) {
        SplittableRandom random = new SplittableRandom(seed ^ (index * 0x9E3779B97F4A7C15L));
        String base = FuzzCorpus.STATEMENTS.get(random.nextInt(FuzzCorpus.STATEMENTS.size()));
        List<Token> tokens = tokens(base);
        // Mostly one mutation: each further one makes a statement that still parses rarer.
        int mutations = random.nextInt(4) == 0 ? 2 + random.nextInt(2) : 1;
        for (int mutation = 0; mutation < mutations && !tokens.isEmpty(); mutation++) {
            mutate(tokens, random);
        }
        StringBuilder sql = new StringBuilder();
        for (Token token : tokens) {
            if (!sql.isEmpty()) {
                sql.append(' ');
            }
            sql.append(token.text());
        }
        return sql.toString();
    }

    private static <T> T pick(List<T> values, SplittableRandom random) {
        return values.get(random.nextInt(values.size()));
    }

    private static void mutate(List<Token> tokens, SplittableRandom random) {
        int at = random.nextInt(tokens.size());
        Token token = tokens.get(at);
        // Shape-keeping mutations (a literal, name or operator for another, a sub-expression for
        // another, a wrapped token) are ten in fourteen; the others rarely leave a statement that parses.
        switch (random.nextInt(14)) {
            case 0, 1, 2 -> replaceOfKind(tokens, random, Kind.NUMBER, Kind.STRING,
                    () -> new Token(Kind.OTHER, pick(FuzzCorpus.LITERALS, random)));
            case 3, 4 -> replaceOfKind(tokens, random, Kind.NAME, Kind.NAME,
                    () -> new Token(Kind.NAME, pick(FuzzCorpus.NAMES, random)));
            case 5 -> replaceOfKind(tokens, random, Kind.OPERATOR, Kind.OPERATOR,
                    () -> new Token(Kind.OPERATOR, pick(FuzzCorpus.OPERATORS, random)));
            case 6, 7 -> replaceSubExpression(tokens, random);
            case 8, 9 -> {
                String wrapper = pick(FuzzCorpus.EXPRESSIONS, random);
                tokens.set(at, new Token(Kind.OTHER, wrapper.replace("%s", token.text())));
            }
            case 10 -> tokens.add(at, new Token(Kind.OTHER, pick(FuzzCorpus.KEYWORDS, random)));
            case 11 -> tokens.remove(at);
            case 12 -> tokens.add(at, token);
            default -> {
                if (at + 1 < tokens.size()) {
                    tokens.set(at, tokens.get(at + 1));
                    tokens.set(at + 1, token);
                }
            }
        }
    }

    /** Replaces a random token of kind {@code first} or {@code second}; none: replaces a random token. */
    private static void replaceOfKind(List<Token> tokens, SplittableRandom random, Kind first, Kind second,
                                      java.util.function.Supplier<Token> replacement) {
        List<Integer> candidates = new ArrayList<>();
        for (int index = 0; index < tokens.size(); index++) {
            Kind kind = tokens.get(index).kind();
            if (kind == first || kind == second) {
                candidates.add(index);
            }
        }
        int at = candidates.isEmpty() ? random.nextInt(tokens.size()) : pick(candidates, random);
        tokens.set(at, replacement.get());
    }

    /** Replaces a balanced parenthesised run of tokens with an expression of the corpus. */
    private static void replaceSubExpression(List<Token> tokens, SplittableRandom random) {
        List<Integer> opens = new ArrayList<>();
        for (int index = 0; index < tokens.size(); index++) {
            if (tokens.get(index).kind() == Kind.OPEN) {
                opens.add(index);
            }
        }
        String expression = pick(FuzzCorpus.EXPRESSIONS, random).replace("%s", pick(FuzzCorpus.NAMES, random));
        if (opens.isEmpty()) {
            tokens.add(random.nextInt(tokens.size() + 1), new Token(Kind.OTHER, expression));
            return;
        }
        int open = pick(opens, random);
        int depth = 0;
        int close = open;
        for (int index = open; index < tokens.size(); index++) {
            Kind kind = tokens.get(index).kind();
            depth += kind == Kind.OPEN ? 1 : kind == Kind.CLOSE ? -1 : 0;
            if (depth == 0) {
                close = index;
                break;
            }
        }
        tokens.subList(open, close + 1).clear();
        tokens.add(open, new Token(Kind.OTHER, expression));
    }

    /** The statement's tokens: enough of SQL's lexical rules to keep strings and quoted names whole. */
    static List<Token> tokens(String sql) {
        List<Token> tokens = new ArrayList<>();
        int position = 0;
        while (position < sql.length()) {
            char first = sql.charAt(position);
            if (Character.isWhitespace(first)) {
                position++;
                continue;
            }
            int end;
            Kind kind;
            if (first == '\'') {
                end = sql.indexOf('\'', position + 1);
                end = end < 0 ? sql.length() : end + 1;
                kind = Kind.STRING;
            } else if (first == '[' || first == '"') {
                end = sql.indexOf(first == '[' ? ']' : '"', position + 1);
                end = end < 0 ? sql.length() : end + 1;
                kind = Kind.NAME;
            } else if (Character.isDigit(first)) {
                end = position;
                while (end < sql.length() && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '.')) {
                    end++;
                }
                kind = Kind.NUMBER;
            } else if (Character.isLetter(first) || first == '_') {
                end = position;
                while (end < sql.length() && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_'
                        || sql.charAt(end) == '.')) {
                    end++;
                }
                kind = Kind.NAME;
            } else if (first == '(' || first == ')') {
                end = position + 1;
                kind = first == '(' ? Kind.OPEN : Kind.CLOSE;
            } else {
                end = position + 1;
                while (end < sql.length() && "<>=!|".indexOf(sql.charAt(end)) >= 0 && "<>=!|".indexOf(first) >= 0) {
                    end++;
                }
                kind = first == ',' || first == ';' ? Kind.OTHER : Kind.OPERATOR;
            }
            tokens.add(new Token(kind, sql.substring(position, end)));
            position = end;
        }
        return tokens;
    }
}

package dev.columba.planner.parser;

import java.util.Collection;
import java.util.List;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.planner.parser.impl.ColumbaTokens;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.config.Lex;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlConformance;
import org.apache.calcite.util.CancelFlag;

/**
 * Parses Columba SQL: Calcite's grammar plus SQL Server's DDL, session commands and query hints
 * (see the node classes of this package). The one place the parser is configured:
 *
 * <ul>
 *   <li>{@link Lex#SQL_SERVER}: identifiers quoted in brackets ({@code [Order Details]}), and, as in
 *       SQL Server with QUOTED_IDENTIFIER ON, in double quotes; strings in single quotes. Unquoted
 *       and quoted identifiers keep their case as written, and names match case-insensitively, so
 *       {@code Testtable2} finds the table created as {@code testtable2}, and STATISTICS IO still
 *       prints the name as it was created. (MYSQL_ANSI would match names the same way, but SQL
 *       Server users and tools write brackets.)</li>
 *   <li>{@link ColumbaConformance}: SQL Server 2008 plus {@code %}, {@code !=}, INSERT into a subset
 *       of columns, OFFSET before LIMIT.</li>
 *   <li>Identifiers up to 128 characters, SQL Server's {@code sysname}.</li>
 *   <li>The words SQL Server and PostgreSQL let name a column that Calcite reserves ({@code value},
 *       {@code year}, {@code date}, ...) are names (config.fmpp's non-reserved keywords, and
 *       {@link ColumbaTokens} for {@code value}).</li>
 * </ul>
 *
 * <p>Errors are {@link ColumbaParseException}s carrying the line and column of the offending token.
 * Parsing takes time linear in the text's length, which is bounded ({@link #MAX_STATEMENT_LENGTH}),
 * and a parse can be cancelled: the parser reads the text through a {@link CancellableReader}.
 * The class is stateless and thread-safe; each call builds its own Calcite parser.
 */
public final class ColumbaSqlParser {
    /** SQL Server's limit on identifier length (sysname = nvarchar(128)). */
    public static final int IDENTIFIER_MAX_LENGTH = 128;

    /**
     * The longest statement (or script) text parsed, in characters: 16 Mi, as a bound on the
     * memory a statement's tree takes; larger text is refused before parsing with a clear error
     * (bulk data belongs in COPY). SQL Server's limit is 256 MB a batch, PostgreSQL's 1 GB.
     */
    public static final int MAX_STATEMENT_LENGTH = 16 << 20;

    /** The flag of a parse nobody can cancel: no one else holds it, so it is never set. */
    private static final CancelFlag NOT_CANCELLED = new CancelFlag(new AtomicBoolean());

    /** More expected tokens than this make the error message say only what was found. */
    private static final int MAX_EXPECTED_TOKENS_LISTED = 12;

    private static final SqlParser.Config CONFIG = SqlParser.config()
            .withParserFactory(ColumbaTokens.PARSER_FACTORY)
            .withLex(Lex.SQL_SERVER)
            .withConformance(ColumbaConformance.INSTANCE)
            .withIdentifierMaxLength(IDENTIFIER_MAX_LENGTH);

    /** Writes SQL this parser reads back: bracket quoting, case kept. */
    private static final SqlDialect DIALECT = new CalciteSqlDialect(CalciteSqlDialect.DEFAULT_CONTEXT
            .withIdentifierQuoteString("[")
            .withIdentifierEscapedQuoteString("]]")
            .withUnquotedCasing(Casing.UNCHANGED)
            .withQuotedCasing(Casing.UNCHANGED)
            .withCaseSensitive(false)
            .withConformance(ColumbaConformance.INSTANCE));

    private ColumbaSqlParser() {
    }

    /** The parser configuration, for Calcite components that parse (e.g. {@code Frameworks}). */
    public static SqlParser.Config config() {
        return CONFIG;
    }

    /** The conformance the validator must use too, so that it accepts what the parser accepts. */
    public static SqlConformance conformance() {
        return ColumbaConformance.INSTANCE;
    }

    /** The dialect {@link #toSql(SqlNode)} writes. */
    public static SqlDialect dialect() {
        return DIALECT;
    }

    /** A word that makes a script's string literals secret in its parse errors (CREATE/ALTER LOGIN, CREATE USER). */
    private static final Pattern PASSWORD = Pattern.compile("(?i)\\bpassword\\b");
    private static final Pattern STRING_LITERAL = Pattern.compile("'((?:[^']|'')*)'");

    /**
     * Parses one statement, which may end with a semicolon.
     *
     * @throws ColumbaParseException if {@code sql} does not parse, or is not exactly one statement
     */
    public static SqlNode parse(String sql) {
        return parse(sql, NOT_CANCELLED);
    }

    /**
     * {@link #parse(String)}, stopping with QUERY_CANCELLED once {@code cancel} is set (a
     * statement's timeout or {@code cancel()} while it is parsed).
     */
    public static SqlNode parse(String sql, CancelFlag cancel) {
        List<SqlNode> statements = parseStatements(sql, cancel);
        if (statements.size() == 1) {
            return statements.getFirst();
        }
        if (statements.isEmpty()) {
            throw new ColumbaParseException("Expected a statement, found none", 1, 1, 1, 1, null);
        }
        SqlParserPos second = statements.get(1).getParserPosition();
        throw new ColumbaParseException("Expected one statement, found " + statements.size()
                + "; the second starts at line " + second.getLineNum() + ", column "
                + second.getColumnNum(), second.getLineNum(), second.getColumnNum(),
                second.getEndLineNum(), second.getEndColumnNum(), null);
    }

    /**
     * Parses a script of statements separated by semicolons (several may share a line, a final
     * semicolon is optional, empty statements are skipped), in order.
     *
     * @throws ColumbaParseException at the first statement that does not parse; positions are in
     *         the whole script
     */
    public static List<SqlNode> parseStatements(String sql) {
        return parseStatements(sql, NOT_CANCELLED);
    }

    /**
     * {@link #parseStatements(String)}, stopping with QUERY_CANCELLED once {@code cancel} is set.
     *
     * @throws ColumbaException STATEMENT_TOO_LARGE for text longer than {@link #MAX_STATEMENT_LENGTH}
     */
    public static List<SqlNode> parseStatements(String sql, CancelFlag cancel) {
        if (sql.length() > MAX_STATEMENT_LENGTH) {
            throw new ColumbaException(ErrorCode.STATEMENT_TOO_LARGE, "the statement is " + sql.length()
                    + " characters long, more than the " + MAX_STATEMENT_LENGTH + " Columba parses;"
                    + " load data with COPY or split the statement");
        }
        try {
            return List.copyOf(SqlParser.create(new CancellableReader(sql, cancel), CONFIG).parseStmtList().getList());
        } catch (SqlParseException e) {
            for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                // A cancelled parse, or a statement the grammar reads but Columba does not run
                // (parserImpls.ftl's columbaNotSupported): its own code, not a syntax error.
                if (cause instanceof ColumbaException columba) {
                    throw columba;
                }
            }
            throw toColumbaException(e, sql);
        }
    }

    /** The node as SQL that {@link #parse(String)} reads back to an equal node. */
    public static String toSql(SqlNode node) {
        return node.toSqlString(DIALECT).getSql();
    }

    private static ColumbaParseException toColumbaException(SqlParseException e, String sql) {
        SqlParserPos pos = e.getPos();
        String found = e.getMessage() != null ? firstLine(e.getMessage()) : messageless(e, pos);
        Collection<String> expected = e.getExpectedTokenNames();
        String message = expected.isEmpty() || expected.size() > MAX_EXPECTED_TOKENS_LISTED
                ? found
                : found + " Was expecting one of: " + String.join(", ", expected) + ".";
        // A script that may set a password must not have it echoed: the error goes to clients, logs and terminals.
        boolean secret = PASSWORD.matcher(sql).find();
        String shown = secret ? withoutStringLiterals(message, sql) : message;
        SqlParseException cause = secret ? null : e;
        if (pos == null) {
            return new ColumbaParseException(shown, 0, 0, 0, 0, cause);
        }
        return new ColumbaParseException(shown, pos.getLineNum(), pos.getColumnNum(),
                pos.getEndLineNum(), pos.getEndColumnNum(), cause);
    }

    /** {@code message} with the text of every string literal of {@code sql} it quotes replaced by {@code ***}. */
    private static String withoutStringLiterals(String message, String sql) {
        String shown = message;
        Matcher literal = STRING_LITERAL.matcher(sql);
        while (literal.find()) {
            String text = literal.group(1);
            for (String quoted : List.of(text, text.replace("''", "'"), text.replace("'", "\\'"))) {
                if (!quoted.isEmpty()) {
                    shown = shown.replace("'" + quoted + "'", "'***'").replace("\\'" + quoted + "\\'", "\\'***\\'");
                }
            }
        }
        return shown;
    }

    /**
     * The message of a parse error whose cause had none. Calcite's parser turns any failure into a
     * SqlParseException with the cause's message; a StackOverflowError (a statement nested too
     * deeply for the parser's recursion) has none, and names no position.
     */
    private static String messageless(SqlParseException e, SqlParserPos pos) {
        String where = pos == null ? "" : " at line " + pos.getLineNum() + ", column " + pos.getColumnNum();
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof StackOverflowError) {
                // SQL Server's Msg 191.
                return "Some part of the statement is nested too deeply" + where
                        + ". Rewrite the statement or break it up into smaller statements.";
            }
        }
        if (e.getCause() != null && builtByOperatorParser(e.getCause())) {
            // Calcite builds an expression's tree from its operators and operands in a second
            // pass, which fails without a message on some malformed sequences (BETWEEN 1 AND NOT 9).
            return "Incorrect syntax" + where + ": an expression's operators and operands do not fit together"
                    + " (an operator without an operand, or BETWEEN ... AND with a bound that is not an operand)";
        }
        String kind = e.getCause() == null ? "no detail" : e.getCause().getClass().getSimpleName();
        return "Incorrect syntax" + where + " (the parser reported " + kind + ")";
    }

    private static boolean builtByOperatorParser(Throwable failure) {
        for (StackTraceElement frame : failure.getStackTrace()) {
            if (frame.getClassName().equals("org.apache.calcite.util.PrecedenceClimbingParser")
                    || frame.getClassName().equals("org.apache.calcite.sql.parser.SqlParserUtil")) {
                return true;
            }
        }
        return false;
    }

    private static String firstLine(String message) {
        int newline = message.indexOf('\n');
        return (newline < 0 ? message : message.substring(0, newline)).strip();
    }
}

package dev.columba.bench.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The short mode of the SQL fuzzing campaign inside {@code ./columba test}: a fixed seed's first
 * statements end without an internal error, a broken parser or a hang; and the campaign's
 * statements are replayable from the seed and the index alone.
 */
class SqlFuzzCampaignTest {
    /** The short run's seed: fixed, so that a failure here is the same failure on every machine. */
    private static final long SEED = 20261127L;
    private static final long STATEMENTS = 1_500;

    @Test
    void aFixedSeedsStatementsEndWithoutInternalErrorsOrHangs() throws SQLException {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        SqlFuzzCampaign.Result result = new SqlFuzzCampaign(SEED, 10, new PrintStream(log, true, StandardCharsets.UTF_8))
                .run(0, STATEMENTS);
        String report = ReliabilityCommand.report(result, 0, 10);
        System.out.print(report);
        assertEquals(List.of(), result.failures(), report);
        assertEquals(STATEMENTS, result.bySqlState().values().stream().mapToLong(Long::longValue).sum(), report);
        long parsed = STATEMENTS - result.count("42601");
        long succeeded = result.count("00000");
        assertTrue(parsed > STATEMENTS / 4, "mutations reach the planner: " + report);
        assertTrue(succeeded > 0 && result.bySqlState().size() > 3, "outcomes are varied: " + report);
    }

    @Test
    void aStatementIsAFunctionOfTheSeedAndItsIndex() {
        assertEquals(SqlMutator.statement(SEED, 1234), SqlMutator.statement(SEED, 1234));
        assertNotEquals(SqlMutator.statement(SEED, 1234), SqlMutator.statement(SEED + 1, 1234));
        long differentFromTheirBase = java.util.stream.LongStream.range(0, 200)
                .filter(index -> !FuzzCorpus.STATEMENTS.contains(SqlMutator.statement(SEED, index))).count();
        assertTrue(differentFromTheirBase > 150, differentFromTheirBase + " of 200 statements were mutated");
    }

    @Test
    void theTokenizerKeepsStringsAndQuotedNamesWhole() {
        List<SqlMutator.Token> tokens = SqlMutator.tokens("SELECT [a b], 'x y' FROM t WHERE i <> 1.5");
        assertEquals(List.of("SELECT", "[a b]", ",", "'x y'", "FROM", "t", "WHERE", "i", "<>", "1.5"),
                tokens.stream().map(SqlMutator.Token::text).toList());
        assertEquals(SqlMutator.Kind.STRING, tokens.get(3).kind());
        assertEquals(SqlMutator.Kind.NUMBER, tokens.get(9).kind());
    }
}

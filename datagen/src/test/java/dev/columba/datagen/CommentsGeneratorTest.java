package dev.columba.datagen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Seed 001's comments: realistic, skewed lengths; essentially every Text distinct; skewed posts
 * and users; the variant without Text holds the same values in the other columns.
 */
class CommentsGeneratorTest extends TableGeneratorContractTest {
    private static final int SAMPLE_ROWS = 100_000;
    private static final int ID = 0;
    private static final int CREATION_DATE = 1;
    private static final int POST_ID = 2;
    private static final int SCORE = 3;
    private static final int TEXT = 4;
    private static final int USER_ID = 5;

    private static long sampleSeed;
    private static List<Object[]> sample;

    @BeforeAll
    static void generateSample() {
        sampleSeed = TestSeed.draw(CommentsGeneratorTest.class.getSimpleName() + " sample");
        sample = collect(CommentsGenerator.withText(SAMPLE_ROWS, sampleSeed).cursor());
    }

    @Override
    protected List<TableGenerator> newGenerators() {
        return List.of(CommentsGenerator.withText(3_000, seed), CommentsGenerator.withoutText(3_000, seed),
                CommentsGenerator.withText(0, seed));
    }

    private static String context() {
        return TestSeed.describe(sampleSeed);
    }

    /**
     * StackOverflow comments average roughly 150-200 characters, with many short ones and a long
     * tail; the generator aims at a mean near 155 (log-normal budget, median 125, sigma 0.7).
     */
    @Test
    void textLengthsAreSkewedWithARealisticMeanAndNeverPast700() {
        int[] lengths = new int[SAMPLE_ROWS];
        long total = 0;
        int longest = 0;
        for (int rowIndex = 0; rowIndex < SAMPLE_ROWS; rowIndex++) {
            String text = (String) sample.get(rowIndex)[TEXT];
            lengths[rowIndex] = text.codePointCount(0, text.length());
            total += lengths[rowIndex];
            longest = Math.max(longest, lengths[rowIndex]);
        }
        Arrays.sort(lengths);
        double mean = (double) total / SAMPLE_ROWS;
        int median = lengths[SAMPLE_ROWS / 2];
        String summary = "mean " + mean + ", median " + median + ", 10th percentile " + lengths[SAMPLE_ROWS / 10]
                + ", 99th percentile " + lengths[SAMPLE_ROWS * 99 / 100] + ", longest " + longest + ", " + context();
        System.out.println("comment text lengths: " + summary);
        assertTrue(longest <= CommentsGenerator.TEXT_MAX_LENGTH, summary);
        assertTrue(mean >= 145 && mean <= 175, summary);
        assertTrue(median < mean, "skewed to the right: " + summary);
        assertTrue(lengths[SAMPLE_ROWS / 10] <= 70, "many short comments: " + summary);
        assertTrue(lengths[SAMPLE_ROWS * 99 / 100] >= 450, "a long tail: " + summary);
        assertTrue(lengths[0] >= CommentsGenerator.TEXT_SHORTEST_LENGTH, "no near-empty comments: " + summary);
    }

    @Test
    void essentiallyEveryTextIsDistinct() {
        Set<String> distinct = new HashSet<>();
        for (Object[] row : sample) {
            distinct.add((String) row[TEXT]);
        }
        int duplicates = SAMPLE_ROWS - distinct.size();
        assertTrue(duplicates <= SAMPLE_ROWS / 1000, duplicates + " duplicate texts in " + SAMPLE_ROWS + ", " + context());
    }

    @Test
    void textHasTheVarietyOfRealComments() {
        int mentions = 0;
        int urls = 0;
        int code = 0;
        int questions = 0;
        int commas = 0;
        int nonAscii = 0;
        for (Object[] row : sample) {
            String text = (String) row[TEXT];
            mentions += text.startsWith("@") ? 1 : 0;
            urls += text.contains("http") ? 1 : 0;
            code += text.indexOf('`') >= 0 ? 1 : 0;
            questions += text.indexOf('?') >= 0 ? 1 : 0;
            commas += text.indexOf(',') >= 0 ? 1 : 0;
            nonAscii += text.chars().anyMatch(character -> character > 127) ? 1 : 0;
        }
        String counts = "mentions " + mentions + ", urls " + urls + ", code " + code + ", questions " + questions
                + ", commas " + commas + ", non-ASCII " + nonAscii + " of " + SAMPLE_ROWS + ", " + context();
        System.out.println("comment text variety: " + counts);
        assertTrue(mentions > SAMPLE_ROWS / 10 && mentions < SAMPLE_ROWS / 4, counts);
        assertTrue(urls > SAMPLE_ROWS / 50, counts);
        assertTrue(code > SAMPLE_ROWS / 5, counts);
        assertTrue(questions > SAMPLE_ROWS / 10, counts);
        assertTrue(commas > SAMPLE_ROWS / 4, counts);
        assertTrue(nonAscii > SAMPLE_ROWS / 100, counts);
    }

    @Test
    void creationDateIncreasesWithIdFromAugust2008() {
        LocalDateTime previous = LocalDateTime.of(2008, 8, 1, 0, 0);
        for (Object[] row : sample) {
            LocalDateTime creation = (LocalDateTime) row[CREATION_DATE];
            assertFalse(creation.isBefore(previous),
                    "Id " + row[ID] + " at " + creation + " before " + previous + ", " + context());
            previous = creation;
        }
        LocalDateTime last = (LocalDateTime) sample.getLast()[CREATION_DATE];
        assertTrue(last.isAfter(LocalDateTime.of(2008, 8, 8, 0, 0)) && last.isBefore(LocalDateTime.of(2008, 8, 9, 0, 0)),
                "100,000 comments at 6.5 s each take 7.5 days: " + last);
    }

    @Test
    void postsAndUsersAreSkewed() {
        Map<Integer, Integer> perPost = new HashMap<>();
        Map<Integer, Integer> perUser = new HashMap<>();
        int nullUsers = 0;
        for (Object[] row : sample) {
            int postId = (Integer) row[POST_ID];
            assertTrue(postId >= 1 && postId <= 1 + ((Integer) row[ID] - 1) * 9L / 10, "PostId " + postId + ", " + context());
            perPost.merge(postId, 1, Integer::sum);
            Integer userId = (Integer) row[USER_ID];
            if (userId == null) {
                nullUsers++;
            } else {
                perUser.merge(userId, 1, Integer::sum);
            }
        }
        int busiestPost = perPost.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
        int busiestUser = perUser.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
        double meanPerPost = (double) SAMPLE_ROWS / perPost.size();
        double meanPerUser = (double) (SAMPLE_ROWS - nullUsers) / perUser.size();
        String summary = "posts " + perPost.size() + " (mean " + meanPerPost + ", busiest " + busiestPost + "), users "
                + perUser.size() + " (mean " + meanPerUser + ", busiest " + busiestUser + "), NULL users " + nullUsers
                + ", " + context();
        System.out.println("comment skew: " + summary);
        assertTrue(busiestPost > 100 * meanPerPost, summary);
        assertTrue(busiestUser > 100 * meanPerUser, summary);
        assertTrue(nullUsers > SAMPLE_ROWS * 2 / 100 && nullUsers < SAMPLE_ROWS * 4 / 100, summary);
    }

    @Test
    void scoresAreMostlyZeroWithALongTail() {
        int zeros = 0;
        int maximum = 0;
        for (Object[] row : sample) {
            int score = (Integer) row[SCORE];
            assertTrue(score >= 0, "score " + score);
            zeros += score == 0 ? 1 : 0;
            maximum = Math.max(maximum, score);
        }
        String summary = zeros + " zero scores of " + SAMPLE_ROWS + ", maximum " + maximum + ", " + context();
        assertTrue(zeros > SAMPLE_ROWS * 3 / 4 && zeros < SAMPLE_ROWS * 81 / 100, summary);
        assertTrue(maximum >= 100, summary);
    }

    @Test
    void theVariantWithoutTextHasTheSameOtherValues() {
        List<Object[]> withoutText = collect(CommentsGenerator.withoutText(SAMPLE_ROWS, sampleSeed).cursor(90_000, 100_000));
        assertEquals("Comments_Modified", CommentsGenerator.withoutText(1, 1).tableName());
        assertEquals(5, CommentsGenerator.withoutText(1, 1).schema().size());
        assertEquals(-1, CommentsGenerator.withoutText(1, 1).schema().indexOf("Text"));
        for (int offset = 0; offset < withoutText.size(); offset++) {
            Object[] full = sample.get(90_000 + offset);
            Object[] expected = {full[ID], full[CREATION_DATE], full[POST_ID], full[SCORE], full[USER_ID]};
            assertArrayEquals(expected, withoutText.get(offset), "row " + (90_000 + offset) + ", " + context());
        }
    }

    /** Pins the values: a change here changes every test, benchmark and demo that used them. */
    @Test
    void valuesArePinnedForAFixedSeed() {
        assertEquals(PINNED_DIGEST_SEED_42, RowDigest.of(CommentsGenerator.withText(1_000_000, 42), 0, 1_000)
                + " " + RowDigest.of(CommentsGenerator.withText(1_000_000, 42), 999_000, 1_000_000));
    }

    private static final String PINNED_DIGEST_SEED_42 = "d7f1172dc0eaf7e1d76d01702cf525baf27e78013a336b4c57e474240380f211"
            + " c32ee45d7fb9053759dd730f696fc779c1a864c3a68eb99b20b6879c73fd8591";
}

package dev.columba.bench.columnstore;

/**
 * What a full scan of a comments table computes: the article assigns every column of every row to
 * a variable, which checks nothing; this adds up enough of them that a scan which skipped, repeated
 * or garbled rows cannot match the expected value by accident.
 *
 * @param rows         rows visited
 * @param sumOfIds     sum of {@code Id}
 * @param sumOfPostIds sum of {@code PostId}
 * @param sumOfScores  sum of the non-null {@code Score}s
 * @param userIds      non-null {@code UserId}s
 * @param texts        non-null {@code Text}s (0 for the tables without it)
 */
public record CommentsScanResult(long rows, long sumOfIds, long sumOfPostIds, long sumOfScores, long userIds,
                                 long texts) {

    /** The same rows as seen without their {@code Text} column. */
    public CommentsScanResult withoutTexts() {
        return new CommentsScanResult(rows, sumOfIds, sumOfPostIds, sumOfScores, userIds, 0);
    }
}

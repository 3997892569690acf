package dev.columba.datagen;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Seed 001's StackOverflow {@code PostHistory.Comments}, with or without its {@code Text} column:
 *
 * <pre>
 * Id           INT           NOT NULL  row index + 1
 * CreationDate TIMESTAMP     NOT NULL  increasing with Id, with jitter
 * PostId       INT           NOT NULL  skewed: recent posts and a few very popular old ones
 * Score        INT                     mostly 0, a long tail of larger scores; never NULL
 * Text         VARCHAR(700)  NOT NULL  word soup of realistic, skewed length, essentially all distinct
 * UserId       INT                     skewed: a few users write much of it; about 3% NULL
 * </pre>
 *
 * <p>The seed compares this table ({@code Comments_CCI}) with a copy without {@code Text}
 * ({@code Comments_CCI_Modified}): {@link #withoutText} gives that copy, with exactly the same
 * values in the other columns. It is the wide, high-cardinality {@code Text} that puts a
 * columnstore's dictionaries under pressure and cuts its rowgroups short.
 *
 * <p>Shapes (all per row from (seed, row index), so a table is a prefix of any longer one with the
 * same seed):
 * <ul>
 *   <li>CreationDate: {@value #MILLIS_PER_COMMENT} ms per comment from 2008-08-01 plus a jitter in
 *       [0, {@value #MILLIS_PER_COMMENT}) ms, so never decreasing; at the seed's 36.6 million rows it
 *       spans 2008 to 2016 like the real dump.</li>
 *   <li>PostId: posts exist up to 0.9 per comment so far. 70% of comments go to one of the latest
 *       20,000 posts, log-uniformly (most to the newest); 30% to {@code 1 + floor(posts * u^3)},
 *       which favours old posts: post 1 alone gets about {@code 0.3 * posts^(-1/3)} of them.</li>
 *   <li>UserId: users exist up to 0.15 per comment so far; {@code 1 + floor(users * u^2.5)}, so
 *       user 1 writes about {@code users^(-0.4)} of the comments (2% at 100,000 rows).</li>
 *   <li>Score: 0 for 78% of comments, else Pareto with exponent 1.6 (two thirds of the rest are
 *       1), capped at 10,000.</li>
 *   <li>Text length: a budget drawn log-normal with median {@value #TEXT_MEDIAN_LENGTH} and sigma
 *       {@value #TEXT_LENGTH_SIGMA}, clamped to [{@value #TEXT_MIN_LENGTH}, {@value #TEXT_MAX_LENGTH}]
 *       (0.7% of budgets are the full 700, as real comments pile up at their box's limit); the text
 *       ends within a word of it. Over 100,000 rows: mean about 157 characters, median 125, 10th
 *       percentile 50, 99th percentile about 630, never more than 700.</li>
 *   <li>Text content ({@link CommentText}): about 18% start with an {@code @mention}, 20% hold a
 *       code token in backticks, 5% a URL, 3% a character beyond ASCII.</li>
 * </ul>
 */
public final class CommentsGenerator implements TableGenerator {
    public static final String TABLE_NAME = "Comments";
    public static final String TABLE_NAME_WITHOUT_TEXT = "Comments_Modified";

    /** The row count of the seed's table. */
    public static final long SEED_ROW_COUNT = 36_585_420L;

    public static final int TEXT_MAX_LENGTH = 700;
    static final int TEXT_MIN_LENGTH = 15;
    /** Texts end within a word of their budget, so a budget of 15 can give a few characters less. */
    static final int TEXT_SHORTEST_LENGTH = 12;
    static final int TEXT_MEDIAN_LENGTH = 125;
    static final double TEXT_LENGTH_SIGMA = 0.7;

    static final long MILLIS_PER_COMMENT = 6_500;
    private static final long FIRST_CREATION_MILLIS =
            LocalDateTime.of(2008, 8, 1, 0, 0).toEpochSecond(ZoneOffset.UTC) * 1000;

    /** Posts (resp. users) that exist when comment i is written: 1 + i * numerator / denominator. */
    private static final long POSTS_NUMERATOR = 9;
    private static final long POSTS_DENOMINATOR = 10;
    private static final long USERS_NUMERATOR = 3;
    private static final long USERS_DENOMINATOR = 20;
    private static final long RECENT_POSTS = 20_000;
    private static final double RECENT_POST_SHARE = 0.7;
    private static final double NULL_USER_SHARE = 0.03;
    private static final double ZERO_SCORE_SHARE = 0.78;
    private static final double SCORE_TAIL_EXPONENT = 1.6;
    private static final int MAX_SCORE = 10_000;
    private static final CommentLengths TEXT_LENGTHS =
            new CommentLengths(TEXT_MEDIAN_LENGTH, TEXT_LENGTH_SIGMA, TEXT_MIN_LENGTH, TEXT_MAX_LENGTH);

    /** Random streams, one per column so that each column's draws are independent of the others. */
    private static final long CREATION_STREAM = 1;
    private static final long POST_STREAM = 2;
    private static final long SCORE_STREAM = 3;
    private static final long TEXT_STREAM = 4;
    private static final long USER_STREAM = 5;

    private static final TableSchema SCHEMA_WITH_TEXT = TableSchema.of(
            Column.notNull("Id", SqlType.INT),
            Column.notNull("CreationDate", SqlType.TIMESTAMP),
            Column.notNull("PostId", SqlType.INT),
            Column.nullable("Score", SqlType.INT),
            Column.notNull("Text", SqlType.varchar(TEXT_MAX_LENGTH)),
            Column.nullable("UserId", SqlType.INT));

    private static final TableSchema SCHEMA_WITHOUT_TEXT = TableSchema.of(
            Column.notNull("Id", SqlType.INT),
            Column.notNull("CreationDate", SqlType.TIMESTAMP),
            Column.notNull("PostId", SqlType.INT),
            Column.nullable("Score", SqlType.INT),
            Column.nullable("UserId", SqlType.INT));

    private final long rowCount;
    private final long seed;
    private final boolean withText;

    private CommentsGenerator(long rowCount, long seed, boolean withText) {
        RowRanges.checkRowCount(withText ? TABLE_NAME : TABLE_NAME_WITHOUT_TEXT, rowCount, Integer.MAX_VALUE);
        this.rowCount = rowCount;
        this.seed = seed;
        this.withText = withText;
    }

    /** The full table: Id, CreationDate, PostId, Score, Text, UserId. */
    public static CommentsGenerator withText(long rowCount, long seed) {
        return new CommentsGenerator(rowCount, seed, true);
    }

    /** The seed's modified copy: the same rows without Text. */
    public static CommentsGenerator withoutText(long rowCount, long seed) {
        return new CommentsGenerator(rowCount, seed, false);
    }

    @Override
    public String tableName() {
        return withText ? TABLE_NAME : TABLE_NAME_WITHOUT_TEXT;
    }

    @Override
    public TableSchema schema() {
        return withText ? SCHEMA_WITH_TEXT : SCHEMA_WITHOUT_TEXT;
    }

    @Override
    public long rowCount() {
        return rowCount;
    }

    public long seed() {
        return seed;
    }

    public boolean hasText() {
        return withText;
    }

    @Override
    public RowCursor cursor(long fromRow, long toRow) {
        RowRanges.checkRange(tableName(), rowCount, fromRow, toRow);
        return new IndexedRowCursor(schema().size(), fromRow, toRow, new Writer(seed, withText));
    }

    /** Per-cursor state: one random stream per column and the text builder, reused for every row. */
    private static final class Writer implements RowWriter {
        private final boolean withText;
        private final RowRandom creationRandom;
        private final RowRandom postRandom;
        private final RowRandom scoreRandom;
        private final RowRandom textRandom;
        private final RowRandom userRandom;
        private final CommentText text = new CommentText();

        Writer(long seed, boolean withText) {
            this.withText = withText;
            this.creationRandom = new RowRandom(seed, CREATION_STREAM);
            this.postRandom = new RowRandom(seed, POST_STREAM);
            this.scoreRandom = new RowRandom(seed, SCORE_STREAM);
            this.textRandom = new RowRandom(seed, TEXT_STREAM);
            this.userRandom = new RowRandom(seed, USER_STREAM);
        }

        @Override
        public void write(long rowIndex, Object[] row) {
            int column = 0;
            row[column++] = (int) (rowIndex + 1);
            row[column++] = creationDate(rowIndex);
            row[column++] = postId(rowIndex);
            row[column++] = score(rowIndex);
            if (withText) {
                row[column++] = text(rowIndex);
            }
            row[column] = userId(rowIndex);
        }

        private LocalDateTime creationDate(long rowIndex) {
            creationRandom.startRow(rowIndex);
            long millis = FIRST_CREATION_MILLIS + rowIndex * MILLIS_PER_COMMENT + creationRandom.nextLong(MILLIS_PER_COMMENT);
            return LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000), Math.floorMod(millis, 1000) * 1_000_000,
                    ZoneOffset.UTC);
        }

        private int postId(long rowIndex) {
            postRandom.startRow(rowIndex);
            long posts = 1 + rowIndex * POSTS_NUMERATOR / POSTS_DENOMINATOR;
            if (postRandom.chance(RECENT_POST_SHARE)) {
                long window = Math.min(posts, RECENT_POSTS);
                long age = (long) StrictMath.exp(postRandom.nextDouble() * StrictMath.log(window));
                return (int) (posts - Math.min(age, window) + 1);
            }
            double uniform = postRandom.nextDouble();
            return (int) (1 + (long) (posts * (uniform * uniform * uniform)));
        }

        private int score(long rowIndex) {
            scoreRandom.startRow(rowIndex);
            if (scoreRandom.chance(ZERO_SCORE_SHARE)) {
                return 0;
            }
            double tail = StrictMath.pow(1.0 - scoreRandom.nextDouble(), -1.0 / SCORE_TAIL_EXPONENT);
            return (int) Math.min(tail, MAX_SCORE);
        }

        private String text(long rowIndex) {
            textRandom.startRow(rowIndex);
            return text.write(textRandom, TEXT_LENGTHS.draw(textRandom), TEXT_SHORTEST_LENGTH);
        }

        private Integer userId(long rowIndex) {
            userRandom.startRow(rowIndex);
            if (userRandom.chance(NULL_USER_SHARE)) {
                return null;
            }
            long users = 1 + rowIndex * USERS_NUMERATOR / USERS_DENOMINATOR;
            double uniform = userRandom.nextDouble();
            // u^2.5; products and square roots are exactly rounded, so this is the same everywhere.
            return (int) (1 + (long) (users * (uniform * uniform * Math.sqrt(uniform))));
        }
    }
}

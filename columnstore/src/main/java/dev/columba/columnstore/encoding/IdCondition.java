package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.core.type.SqlType;
import java.util.List;

/**
 * A comparison or IN list evaluated once against the dictionaries instead of once per row: the set
 * of matching ids, as a bitmap over the segment's id space. Because dictionaries are sorted, a
 * comparison is two binary searches per dictionary and matches one id range in each; an IN list is
 * two searches per constant. Immutable.
 */
final class IdCondition {
    private final long[] words;
    private final int idCount;
    private final int matchingIds;

    private IdCondition(long[] words, int idCount, int matchingIds) {
        this.words = words;
        this.idCount = idCount;
        this.matchingIds = matchingIds;
    }

    /**
     * Binds {@code predicate} over ids {@code [0, primaryCount)} of {@code primary} and
     * {@code [primaryCount, primaryCount + secondaryCount)} of {@code secondary} (either may be null
     * with a count of 0).
     */
    static IdCondition bind(SqlType type, ColumnPredicate predicate, Dictionary primary, int primaryCount,
                            Dictionary secondary, int secondaryCount) {
        int idCount = primaryCount + secondaryCount;
        long[] words = new long[(idCount + 63) >>> 6];
        if (primary != null) {
            mark(words, type, predicate, primary, 0);
        }
        if (secondary != null) {
            mark(words, type, predicate, secondary, primaryCount);
        }
        int matching = 0;
        for (long word : words) {
            matching += Long.bitCount(word);
        }
        return new IdCondition(words, idCount, matching);
    }

    private static void mark(long[] words, SqlType type, ColumnPredicate predicate, Dictionary dictionary, int base) {
        int entries = dictionary.entryCount();
        switch (predicate) {
            case ColumnPredicate.Comparison(ColumnPredicate.Operator operator, Object constant) -> {
                Object normalized = Constants.normalize(type, constant);
                if (normalized == null) {
                    return;
                }
                int lower = dictionary.lowerBound(normalized);
                int upper = dictionary.upperBound(normalized);
                switch (operator) {
                    case EQUAL -> set(words, base + lower, base + upper);
                    case NOT_EQUAL -> {
                        set(words, base, base + lower);
                        set(words, base + upper, base + entries);
                    }
                    case LESS -> set(words, base, base + lower);
                    case LESS_OR_EQUAL -> set(words, base, base + upper);
                    case GREATER -> set(words, base + upper, base + entries);
                    case GREATER_OR_EQUAL -> set(words, base + lower, base + entries);
                }
            }
            case ColumnPredicate.In(List<Object> constants) -> {
                for (Object constant : constants) {
                    Object normalized = Constants.normalize(type, constant);
                    if (normalized != null) {
                        set(words, base + dictionary.lowerBound(normalized), base + dictionary.upperBound(normalized));
                    }
                }
            }
            case ColumnPredicate.IsNull ignored -> throw new IllegalArgumentException("IS NULL has no id condition");
            case ColumnPredicate.IsNotNull ignored -> throw new IllegalArgumentException("IS NOT NULL has no id condition");
        }
    }

    private static void set(long[] words, int from, int to) {
        for (int id = from; id < to; id++) {
            words[id >>> 6] |= 1L << id;
        }
    }

    /** Most ids {@link #word} can hold. */
    static final int WORD_IDS = 64;

    /** The ids in the space. */
    int idCount() {
        return idCount;
    }

    /** The matching ids as the bits of one word, when the id space has at most {@link #WORD_IDS} ids. */
    long word() {
        if (idCount > WORD_IDS) {
            throw new IllegalStateException(idCount + " ids do not fit one word");
        }
        return words.length == 0 ? 0 : words[0];
    }

    /** Whether id {@code id} (already checked to be in the id space) matches. */
    boolean test(long id) {
        return (words[(int) (id >>> 6)] & (1L << id)) != 0;
    }

    boolean matchesNone() {
        return matchingIds == 0;
    }

    boolean matchesAll() {
        return matchingIds == idCount;
    }
}

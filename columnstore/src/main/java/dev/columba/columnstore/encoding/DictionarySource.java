package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.util.Objects;

/**
 * What the rowgroup builder tells the encoder about dictionaries for one segment.
 */
public sealed interface DictionarySource {

    /** The column is not dictionary-encoded (its table or type does not ask for it). */
    record NoDictionary() implements DictionarySource {
    }

    /**
     * The column's dictionaries: every non-NULL value of the segment is in {@code primary} or
     * {@code secondary}. Either may be null (no primary yet; every value in the primary). The
     * encoder may still pick another encoding; {@link SegmentMetadata} says which dictionaries the
     * segment references, and only those need storing.
     *
     * <p>{@code rowIds}, when not null, is every row's id as the builder learnt it while adding the
     * values (the primary's index, or the primary's entry count plus the secondary's index; any
     * value for a NULL row): the encoder takes them as they are instead of looking each value up.
     */
    record Dictionaries(Dictionary primary, Dictionary secondary, int[] rowIds) implements DictionarySource {
        public Dictionaries(Dictionary primary, Dictionary secondary) {
            this(primary, secondary, null);
        }

        public Dictionaries {
            if (primary == null && secondary == null) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "give at least one dictionary, or NoDictionary");
            }
            if (primary != null && primary.isSecondary()) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "the primary dictionary is a secondary one: " + primary);
            }
            if (secondary != null && !secondary.isSecondary()) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "the secondary dictionary is a primary one: " + secondary);
            }
            if (primary != null && secondary != null && !primary.type().equals(secondary.type())) {
                throw new ColumbaException(ErrorCode.WRONG_TYPE, "dictionaries of " + primary.type().sqlName() + " and "
                        + secondary.type().sqlName() + " cannot serve one segment");
            }
        }
    }

    /**
     * The builder gave the dictionary up for this segment ({@code dictionary_overflow = fallback});
     * the segment is encoded without one and records {@code reason}.
     */
    record Fallback(FallbackReason reason) implements DictionarySource {
        public Fallback {
            Objects.requireNonNull(reason, "reason");
            if (reason == FallbackReason.NONE) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a fallback needs a reason");
            }
        }
    }

    static DictionarySource none() {
        return new NoDictionary();
    }

    static DictionarySource of(Dictionary primary, Dictionary secondary) {
        return new Dictionaries(primary, secondary);
    }

    /** As {@link #of(Dictionary, Dictionary)}, with every row's id known ({@link Dictionaries}). */
    static DictionarySource of(Dictionary primary, Dictionary secondary, int[] rowIds) {
        return new Dictionaries(primary, secondary, rowIds);
    }

    static DictionarySource fallback(FallbackReason reason) {
        return new Fallback(reason);
    }
}

package dev.columba.columnstore.encoding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.dictionary.DictionaryBuilder;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;

class DictionaryEncodingTest extends AbstractEncodingTest {

    @Override
    EncodingKind kind() {
        return EncodingKind.DICTIONARY;
    }

    @Override
    boolean appliesTo(SqlType type) {
        return true;
    }

    /**
     * Dictionaries as a table would have them: sometimes only a secondary, sometimes a primary that
     * holds every value, usually a primary with some of the values (and others no segment here uses)
     * and a secondary with the rest.
     */
    @Override
    TestDictionaries dictionariesFor(SqlType type, FieldVector values, Random random) {
        return dictionaries(type, values, random);
    }

    static TestDictionaries dictionaries(SqlType type, FieldVector values, Random random) {
        int mode = random.nextInt(4);
        Dictionary primary = null;
        if (mode != 0) {
            DictionaryBuilder builder = DictionaryBuilder.primary(type, DictionaryBuilder.DEFAULT_CAP_BYTES);
            for (int extra = random.nextInt(20); extra > 0; extra--) {
                builder.tryAdd(TestColumns.randomValue(type, random));
            }
            for (int row = 0; row < values.getValueCount(); row++) {
                if (mode == 1 || random.nextInt(3) == 0) {
                    builder.tryAdd(values, row);
                }
            }
            primary = builder.freeze(random.nextInt(1000));
        }
        DictionaryBuilder secondaryBuilder = DictionaryBuilder.secondary(type, primary, DictionaryBuilder.DEFAULT_CAP_BYTES);
        assertEquals(values.getValueCount(), secondaryBuilder.tryAddAll(values, 0, values.getValueCount()));
        Dictionary secondary = secondaryBuilder.entryCount() == 0 && random.nextBoolean() && primary != null
                ? null : secondaryBuilder.freeze(1000 + random.nextInt(1000));
        return new TestDictionaries(primary, secondary);
    }

    @Test
    void aBitWidthAbove64IsCorrupt() throws Exception {
        Seeds.run("DictionaryEncodingTest.aBitWidthAbove64IsCorrupt", random -> {
            Encoded encoded = sample(SqlType.varchar(20), random);
            byte[] bytes = encoded.bytes().clone();
            int widthOffset = bodyOffset(encoded) + 8;
            bytes[widthOffset] = (byte) 200;
            assertCorrupt(encoded, bytes, "[INDEX_CORRUPT] test segment: bit width 200 at offset " + widthOffset);
        });
    }

    @Test
    void anIdBeyondTheDictionariesIsCorruptWhenRead() throws Exception {
        Seeds.run("DictionaryEncodingTest.anIdBeyondTheDictionariesIsCorruptWhenRead", random -> {
            List<Object> values = List.of("b", "a", "b", "c");
            Encoded encoded;
            try (FieldVector vector = TestColumns.vector(allocator, SqlType.varchar(5), values)) {
                DictionaryBuilder builder = DictionaryBuilder.secondary(SqlType.varchar(5), null, 1000);
                builder.tryAddAll(vector, 0, 4);
                Dictionary secondary = builder.freeze(9);
                EncodedSegment segment = SegmentEncoder.encode(EncodingKind.DICTIONARY, vector, SqlType.varchar(5),
                        DictionarySource.of(null, secondary), EncodingOptions.DEFAULT);
                encoded = new Encoded(SqlType.varchar(5), values, segment, new TestDictionaries(null, secondary));
            }
            byte[] bytes = encoded.bytes().clone();
            // Ids 1 0 1 2 in 2 bits from reference 0; make row 3's id 3, one past the 3 entries.
            int words = bodyOffset(encoded) + 9;
            bytes[words] = (byte) (bytes[words] | 0xC0);
            SegmentReader reader = open(encoded, bytes);
            ColumbaException decode = assertThrows(ColumbaException.class, () -> {
                try (FieldVector target = TestColumns.newVector(allocator, SqlType.varchar(5))) {
                    reader.decode(0, 4, target, 0);
                }
            });
            assertEquals("[INDEX_CORRUPT] test segment: row 3 has dictionary id 3, beyond the 3 ids of its dictionaries",
                    decode.getMessage());
            assertEquals("b", reader.fetch(2));
            ColumbaException fetch = assertThrows(ColumbaException.class, () -> reader.fetch(3));
            assertEquals(ErrorCode.INDEX_CORRUPT, fetch.errorCode());
            // A filter over the small dictionary tests ids against one word; the damaged id is still reported.
            SegmentFilter filter = reader.filter(ColumnPredicate.equal("a"));
            ColumbaException select = assertThrows(ColumbaException.class, () -> filter.select(0, 4, new int[4]));
            assertEquals(decode.getMessage(), select.getMessage());
            assertEquals(1, filter.select(0, 3, new int[3]), "the rows before the damaged one: one 'a'");
            ColumbaException refine = assertThrows(ColumbaException.class, () -> filter.refine(0, new int[] {1, 3}, 2));
            assertEquals(decode.getMessage(), refine.getMessage());
            int[] undamaged = {0, 1, 2};
            assertEquals(1, filter.refine(0, undamaged, 3));
            assertEquals(1, undamaged[0]);
        });
    }

    @Test
    void anotherDictionaryThanTheSegmentNamesIsRefused() throws Exception {
        Seeds.run("DictionaryEncodingTest.anotherDictionaryThanTheSegmentNamesIsRefused", random -> {
            Encoded encoded = sample(SqlType.varchar(20), random);
            SegmentHeader header = SegmentHeader.read(MemorySegment.ofArray(encoded.bytes()), ORIGIN);
            DictionaryBuilder other = DictionaryBuilder.secondary(SqlType.varchar(20), null, 1000);
            other.tryAdd("other");
            Dictionary wrong = other.freeze(4242);
            Dictionary primary = encoded.dictionaries().primary();
            Dictionary secondary = encoded.dictionaries().secondary();
            ColumbaException error;
            if (header.secondaryDictionaryId() != SegmentMetadata.NO_DICTIONARY) {
                error = assertThrows(ColumbaException.class, () -> SegmentReader.open(offHeap(encoded.bytes()),
                        SqlType.varchar(20), primary, wrong, ORIGIN));
                assertEquals("[INDEX_CORRUPT] test segment: segment refers to secondary dictionary " + secondary.id() + " of "
                        + secondary.entryCount() + " entries, given " + wrong, error.getMessage());
            } else {
                error = assertThrows(ColumbaException.class, () -> SegmentReader.open(offHeap(encoded.bytes()),
                        SqlType.varchar(20), null, secondary, ORIGIN));
                assertEquals("[INDEX_CORRUPT] test segment: segment refers to primary dictionary " + primary.id() + " of "
                        + primary.entryCount() + " entries, given null", error.getMessage());
            }
            assertEquals(ErrorCode.INDEX_CORRUPT, error.errorCode());
        });
    }
}

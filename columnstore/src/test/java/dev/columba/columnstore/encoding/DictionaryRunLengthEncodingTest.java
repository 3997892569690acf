package dev.columba.columnstore.encoding;

import dev.columba.core.type.SqlType;
import java.util.Random;
import org.apache.arrow.vector.FieldVector;

class DictionaryRunLengthEncodingTest extends AbstractEncodingTest {

    @Override
    EncodingKind kind() {
        return EncodingKind.DICTIONARY_RUN_LENGTH;
    }

    @Override
    boolean appliesTo(SqlType type) {
        return true;
    }

    @Override
    TestDictionaries dictionariesFor(SqlType type, FieldVector values, Random random) {
        return DictionaryEncodingTest.dictionaries(type, values, random);
    }
}

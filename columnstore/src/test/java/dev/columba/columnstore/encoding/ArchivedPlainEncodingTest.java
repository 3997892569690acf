package dev.columba.columnstore.encoding;

import dev.columba.core.type.SqlType;

/** Plain segments compressed with zstd: the archive layer under the whole contract. */
class ArchivedPlainEncodingTest extends AbstractEncodingTest {

    @Override
    EncodingKind kind() {
        return EncodingKind.PLAIN;
    }

    @Override
    boolean appliesTo(SqlType type) {
        return true;
    }

    @Override
    EncodingOptions options() {
        return new EncodingOptions(true, 3);
    }
}

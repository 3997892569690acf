package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.type.SqlType;

/** Predicate constants as a column compares them. */
final class Constants {
    private Constants() {
    }

    /**
     * {@code constant} checked against the column type's Java class and, for CHAR, blank-padded to
     * the column's length (stored CHAR values are padded).
     *
     * @throws dev.columba.core.error.ColumbaException WRONG_TYPE for a constant of another class
     */
    static Object normalize(SqlType type, Object constant) {
        if (constant == null) {
            return null;
        }
        ValueKind.compareValues(type, constant, constant);
        if (type instanceof SqlType.CharType character && constant instanceof String text) {
            int length = text.codePointCount(0, text.length());
            return length < character.length() ? text + " ".repeat(character.length() - length) : text;
        }
        return constant;
    }
}

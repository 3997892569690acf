package dev.columba.core.exec;

import dev.columba.core.type.SqlType;

/** Facts about how a SQL type lies in its vector that operators branch on. */
final class TypeLayouts {
    private TypeLayouts() {
    }

    static boolean isVariableWidth(SqlType type) {
        return type instanceof SqlType.VarcharType || type instanceof SqlType.CharType;
    }
}

package dev.columba.planner.copy;

import dev.columba.core.type.SqlType;

/**
 * A column of an imported file as its format describes it: its name, the Columba type its values
 * read as ({@code null} when no Columba type holds them), and the format's own name for its type,
 * shown in errors.
 */
public record FileColumn(String name, SqlType type, String fileType) {
    public FileColumn {
        if (name == null || fileType == null) {
            throw new IllegalArgumentException("a file column needs a name and a file type");
        }
    }
}

package dev.columba.planner.copy;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.util.ArrayList;
import java.util.List;

/**
 * What an import fills: table {@code table} of {@code schema}, the columns {@code columns} (as
 * COPY's column list names them; empty for all the table's columns).
 *
 * <p>A self-describing file is mapped by name, not position, as a CSV file's HEADER is checked:
 * every file column must name one of these columns (case-insensitively), and every one of these
 * columns must be in the file; a column of the table outside the list is NULL. Each pair must be
 * of one family — a boolean, a number, text, a date, a timestamp (or a date into a timestamp) —
 * since a file's types are declared, not guessed: a string into a number is a mismatch (42804),
 * not a value to parse. Within a family values convert by store assignment, so a number that
 * does not fit is 22003 and a string too long is 22001, as INSERT's are.
 */
public record ImportTarget(TableSchema schema, String table, List<String> columns) {
    public ImportTarget {
        columns = List.copyOf(columns);
    }

    /**
     * Binds the file's columns, in file order, to the target's.
     *
     * @throws ColumbaException UNDEFINED_COLUMN for a file column the target lacks or a target column
     *         the file lacks, INVALID_ARGUMENT for a name the file has twice, WRONG_TYPE for types of
     *         different families, FEATURE_NOT_SUPPORTED for a file type no Columba type holds
     */
    public ImportedColumn[] bind(String fileName, List<FileColumn> fileColumns) {
        List<Integer> wanted = new ArrayList<>();
        if (columns.isEmpty()) {
            for (int column = 0; column < schema.size(); column++) {
                wanted.add(column);
            }
        } else {
            for (String name : columns) {
                int column = schema.indexOf(name);
                if (column < 0) {
                    throw new ColumbaException(ErrorCode.UNDEFINED_COLUMN, "column " + name + " does not exist in " + table);
                }
                wanted.add(column);
            }
        }
        ImportedColumn[] bound = new ImportedColumn[fileColumns.size()];
        boolean[] found = new boolean[schema.size()];
        for (int index = 0; index < fileColumns.size(); index++) {
            FileColumn fileColumn = fileColumns.get(index);
            int target = -1;
            for (int column : wanted) {
                if (schema.column(column).name().equalsIgnoreCase(fileColumn.name())) {
                    target = column;
                }
            }
            if (target < 0) {
                throw new ColumbaException(ErrorCode.UNDEFINED_COLUMN, "COPY " + table + " FROM " + fileName + ": the file's column "
                        + fileColumn.name() + " is not " + (columns.isEmpty() ? "a column of " + table
                        : "among the columns COPY names") + "; the file's columns are mapped by name");
            }
            if (found[target]) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "COPY " + table + " FROM " + fileName
                        + ": the file has column " + fileColumn.name() + " twice");
            }
            found[target] = true;
            Column column = schema.column(target);
            if (fileColumn.type() == null) {
                throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "COPY " + table + " FROM " + fileName
                        + ": column " + fileColumn.name() + " is " + fileColumn.fileType() + " in the file, which no Columba type holds");
            }
            if (!fits(fileColumn.type(), column.type())) {
                throw new ColumbaException(ErrorCode.WRONG_TYPE, "COPY " + table + " FROM " + fileName + ": column "
                        + fileColumn.name() + " is " + fileColumn.fileType() + " in the file, which cannot be stored in " + column.name() + " " + column.type().sqlName());
            }
            bound[index] = new ImportedColumn(fileColumn, column, target, table);
        }
        for (int column : wanted) {
            if (!found[column]) {
                throw new ColumbaException(ErrorCode.UNDEFINED_COLUMN, "COPY " + table + " FROM " + fileName + ": column "
                        + schema.column(column).name() + " is not in the file; its columns are " + (fileColumns.isEmpty() ? "none"
                        : String.join(", ", fileColumns.stream().map(FileColumn::name).toList())));
            }
        }
        return bound;
    }

    /** Whether values of {@code from} may be stored in a column of {@code to}: one family. */
    static boolean fits(SqlType from, SqlType to) {
        return family(from) == family(to) || from instanceof SqlType.DateType && to instanceof SqlType.TimestampType;
    }

    private enum Family { BOOLEAN, NUMBER, TEXT, DATE, TIMESTAMP, BINARY, UUID }

    private static Family family(SqlType type) {
        return switch (type) {
            case SqlType.BooleanType ignored -> Family.BOOLEAN;
            case SqlType.IntegerType ignored -> Family.NUMBER;
            case SqlType.BigintType ignored -> Family.NUMBER;
            case SqlType.DoubleType ignored -> Family.NUMBER;
            case SqlType.DecimalType ignored -> Family.NUMBER;
            case SqlType.VarcharType ignored -> Family.TEXT;
            case SqlType.CharType ignored -> Family.TEXT;
            case SqlType.VarbinaryType ignored -> Family.BINARY;
            case SqlType.BinaryType ignored -> Family.BINARY;
            case SqlType.UuidType ignored -> Family.UUID;
            case SqlType.DateType ignored -> Family.DATE;
            case SqlType.TimestampType ignored -> Family.TIMESTAMP;
        };
    }
}

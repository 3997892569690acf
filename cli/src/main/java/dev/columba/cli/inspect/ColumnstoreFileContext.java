package dev.columba.cli.inspect;

import dev.columba.columnstore.build.ColumnstoreOptions;
import dev.columba.columnstore.file.ColumnstoreFiles;
import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.db.Database;
import dev.columba.storage.db.DatabaseLayout;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the database around a rowgroup or dictionary file says about it: the table it belongs to
 * (schema and options, from the catalog) and the table's rowgroup directory. A rowgroup file holds
 * no column types, and its footer's min and max are in the key encoding of the column's type, so
 * the types must come from the catalog; a file copied out of its database falls back on the value
 * kinds its segments name ({@link #typeOf(ValueKind)}).
 *
 * <p>The data file is read quietly: its damage is for a dump of the database to report, not a dump
 * of one columnstore file.
 *
 * @param table     the table, or null when it cannot be known; then {@code unknownReason} says why
 * @param directory the table's rowgroup directory, or null with the table
 */
record ColumnstoreFileContext(Path database, CatalogEntry.Table table, RowgroupDirectory directory, String unknownReason) {

    /** The context of {@code file}, found from where it lies; never throws. */
    static ColumnstoreFileContext of(Path file) {
        Path database = databaseOf(file);
        if (database == null) {
            return new ColumnstoreFileContext(null, null, null, "the file does not lie in a database directory ("
                    + "<db>/" + Database.COLUMNSTORE_DIRECTORY + "/<table id>/)");
        }
        int tableId = tableIdOf(file);
        Findings quiet = new Findings(new PrintStream(OutputStream.nullOutputStream()));
        try (DataFileDump dump = DataFileDump.open(DatabaseLayout.dataFile(database),
                new PrintStream(OutputStream.nullOutputStream()), quiet)) {
            if (!dump.catalogFound()) {
                return new ColumnstoreFileContext(database, null, null, "the catalog of " + database + " cannot be read");
            }
            return switch (dump.catalog().entry(tableId).orElse(null)) {
                case null -> new ColumnstoreFileContext(database, null, null, "the catalog of " + database
                        + " has no object " + tableId + (dump.catalog().complete() ? "" : " (it was read in part)"));
                case CatalogEntry.Table table when table.organization() == CatalogEntry.Organization.COLUMNSTORE ->
                        new ColumnstoreFileContext(database, table, dump.rowgroupDirectories().get(tableId), null);
                case CatalogEntry.Table table -> new ColumnstoreFileContext(database, null, null, "object " + tableId
                        + " of " + database + " is " + table.organization() + " table " + table.name()
                        + ", not a columnstore table");
                case CatalogEntry.Index index -> new ColumnstoreFileContext(database, null, null, "object " + tableId
                        + " of " + database + " is index " + index.name() + ", not a columnstore table");
                case CatalogEntry.View view -> new ColumnstoreFileContext(database, null, null, "object " + tableId
                        + " of " + database + " is view " + view.name() + ", not a columnstore table");
                case CatalogEntry.PartitionObject object -> new ColumnstoreFileContext(database, null, null, "object "
                        + tableId + " of " + database + " is partition " + object.kind().name().toLowerCase(java.util.Locale.ROOT)
                        + " " + object.name() + ", not a columnstore table");
                case CatalogEntry.Login login -> new ColumnstoreFileContext(database, null, null, "object " + tableId
                        + " of " + database + " is login " + login.name() + ", not a columnstore table");
            };
        } catch (RuntimeException unreadable) {
            return new ColumnstoreFileContext(database, null, null, "the data file of " + database + " cannot be read: "
                    + DataFileDump.reason(unreadable));
        }
    }

    /**
     * The database directory holding {@code file} if it lies at {@code <db>/columnstore/<id>/<name>}
     * beside a data file, else null.
     */
    static Path databaseOf(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        Path tableDirectory = absolute.getParent();
        if (tableDirectory == null || tableIdOf(file) < 0) {
            return null;
        }
        Path columnstore = tableDirectory.getParent();
        if (columnstore == null || columnstore.getParent() == null) {
            return null;
        }
        Path database = columnstore.getParent();
        return ColumnstoreFiles.columnstoreDirectory(database).equals(columnstore)
                && Files.exists(DatabaseLayout.dataFile(database)) ? database : null;
    }

    /** The table id the name of the directory holding {@code file} gives, or -1. */
    static int tableIdOf(Path file) {
        Path parent = file.toAbsolutePath().normalize().getParent();
        return parent == null || parent.getFileName() == null ? -1
                : ColumnstoreFiles.tableIdOfDirectoryName(parent.getFileName().toString());
    }

    /** {@code "table 100 sales of /db"}, or why the table is unknown. */
    String description() {
        return table != null ? RowgroupDirectory.label(table) + " of " + database : "unknown: " + unknownReason;
    }

    /** The column's type from the catalog, or null when the table or the column is unknown. */
    SqlType type(int column) {
        TableSchema schema = table == null ? null : table.schema();
        return schema != null && column >= 0 && column < schema.size() ? schema.column(column).type() : null;
    }

    /** {@code "1 region"}, or {@code "1"} when the table is unknown. */
    String columnLabel(int column) {
        TableSchema schema = table == null ? null : table.schema();
        return schema != null && column >= 0 && column < schema.size() ? column + " " + schema.column(column).name()
                : String.valueOf(column);
    }

    /** The table's options, or null when the table is unknown or its options do not parse. */
    ColumnstoreOptions options() {
        if (table == null) {
            return null;
        }
        try {
            return ColumnstoreOptions.parse(table.options());
        } catch (ColumbaException invalid) {
            return null;
        }
    }

    /**
     * A type that reads values of {@code kind} when the catalog cannot give the column's: exact for
     * every kind but DECIMAL, whose scale only the catalog knows (its values read unscaled).
     */
    static SqlType typeOf(ValueKind kind) {
        return switch (kind) {
            case BOOLEAN -> SqlType.BOOLEAN;
            case INT -> SqlType.INT;
            case BIGINT -> SqlType.BIGINT;
            case DOUBLE -> SqlType.DOUBLE;
            case DECIMAL64 -> SqlType.decimal(ValueKind.MAX_LONG_DECIMAL_PRECISION, 0);
            case DECIMAL128 -> SqlType.decimal(SqlType.DecimalType.MAX_PRECISION, 0);
            case STRING -> SqlType.varchar(SqlType.VarcharType.MAX_LENGTH);
            case DATE -> SqlType.DATE;
            case TIMESTAMP -> SqlType.TIMESTAMP;
        };
    }
}

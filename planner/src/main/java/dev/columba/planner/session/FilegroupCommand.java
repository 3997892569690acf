package dev.columba.planner.session;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.planner.parser.SqlAlterDatabase;
import dev.columba.planner.parser.SqlOption;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.db.Database;
import dev.columba.storage.table.Tables;
import java.util.List;
import java.util.Optional;

/**
 * {@code ALTER DATABASE ... ADD FILEGROUP | ADD FILE | REMOVE FILEGROUP}: changes the database's
 * files (docs/design/storage.md, "Files and filegroups"). Not transactional, as in SQL Server
 * (which refuses ALTER DATABASE inside a user transaction): each runs on its own and is durable when
 * it returns, so a session with an open transaction is refused.
 */
final class FilegroupCommand {
    private final Session session;

    FilegroupCommand(Session session) {
        this.session = session;
    }

    StatementResult execute(SqlAlterDatabase alter) {
        if (session.inTransaction()) {
            throw new ColumbaException(ErrorCode.TRANSACTION_STATE, "ALTER DATABASE is not allowed in a transaction:"
                    + " commit or roll back first");
        }
        Database database = session.database();
        switch (alter.action()) {
            case ADD_FILEGROUP -> database.addFilegroup(alter.filegroup().getSimple());
            case REMOVE_FILEGROUP -> removeFilegroup(database, alter.filegroup().getSimple());
            case ADD_FILE -> {
                String filegroup = alter.filegroup() == null ? "PRIMARY" : alter.filegroup().getSimple();
                for (List<SqlOption> file : alter.files()) {
                    database.addFile(required(file, "name"), required(file, "filename"), filegroup);
                }
            }
        }
        return new StatementResult.Command(List.of(), StatementStatistics.NONE);
    }

    /** NAME and FILENAME are required; files grow an extent at a time, so SIZE and its kin are refused. */
    private static String required(List<SqlOption> file, String name) {
        for (SqlOption option : file) {
            if (!option.name().equals("name") && !option.name().equals("filename")) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "ADD FILE takes NAME and FILENAME; "
                        + option.nameIdentifier() + " is not supported (files grow an extent at a time as needed)");
            }
        }
        Optional<String> value = file.stream().filter(option -> option.name().equals(name)).findFirst()
                .flatMap(SqlOption::valueText);
        return value.filter(text -> !text.isBlank()).orElseThrow(() -> new ColumbaException(ErrorCode.INVALID_ARGUMENT,
                "ADD FILE needs " + name.toUpperCase(java.util.Locale.ROOT) + " = ..."));
    }

    /** Refuses a filegroup that a table is placed on (SQL Server's Msg 5042), then lets the database check its files. */
    private void removeFilegroup(Database database, String name) {
        for (CatalogEntry.Table table : new Tables(database).list(database.bufferPool(), database.systemCounters())) {
            String placed = table.options().get(Tables.FILEGROUP_OPTION);
            if (placed != null && placed.equalsIgnoreCase(name)) {
                throw new ColumbaException(ErrorCode.OBJECT_IN_USE, "filegroup " + name + " cannot be removed: table "
                        + table.name() + " is placed on it");
            }
        }
        database.removeFilegroup(name);
    }
}

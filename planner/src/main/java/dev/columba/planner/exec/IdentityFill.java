package dev.columba.planner.exec;

import dev.columba.core.context.GeneratedKeys;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.planner.schema.GeneratedColumns;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.db.Database;
import dev.columba.storage.table.Tables;
import dev.columba.storage.txn.Transaction;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Gives inserted rows their identity values. The last value handed out lives in the table's
 * options ({@code identity_last:<column>}) and is read and written inside the statement's write
 * transaction: there is one writer at a time, so no two statements hand out the same value, and a
 * rolled-back insert gives its values back (SQL Server leaves a gap; Columba need not). INSERT's
 * operator and COPY's row path use it.
 */
public final class IdentityFill {
    private final Database database;
    private final int objectId;
    private final GeneratedColumns generated;
    private final SqlType type;
    private final String columnName;
    private Long last;
    /** The first value this fill handed out, and how many it handed out. */
    private long first;
    private long handedOut;

    private IdentityFill(Database database, int objectId, GeneratedColumns generated, TableSchema schema) {
        this.database = database;
        this.objectId = objectId;
        this.generated = generated;
        this.type = schema.column(generated.identity()).type();
        this.columnName = schema.column(generated.identity()).name();
        this.last = generated.lastIdentity();
        if (type != SqlType.INT && type != SqlType.BIGINT) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, "identity column " + columnName + " must be INT or BIGINT, not "
                    + type.sqlName());
        }
    }

    /**
     * The fill for the table a plan made against {@code planned} writes, or null if it has no
     * identity column. Whether it has one is fixed by its DDL, so {@code planned} says so without
     * reading the catalog (a look-up per INSERT otherwise); the last value handed out is read as
     * {@code transaction} sees it.
     */
    public static IdentityFill of(Database database, Transaction transaction, CatalogEntry.Table planned) {
        if (GeneratedColumns.of(planned.schema(), planned.options()).identity() < 0) {
            return null;
        }
        return of(database, transaction, planned.objectId());
    }

    /** The fill for table {@code objectId} as {@code transaction} sees it, or null if it has no identity column. */
    public static IdentityFill of(Database database, Transaction transaction, int objectId) {
        CatalogEntry.Table entry = entry(database, transaction, objectId);
        GeneratedColumns generated = GeneratedColumns.of(entry.schema(), entry.options());
        return generated.identity() < 0 ? null : new IdentityFill(database, objectId, generated, entry.schema());
    }

    private static CatalogEntry.Table entry(Database database, Transaction transaction, int objectId) {
        return (CatalogEntry.Table) database.catalog().byId(transaction.writes(), objectId, transaction.systemCounters())
                .orElseThrow(() -> new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, "table " + objectId + " was dropped"));
    }

    /** {@code rows} with the identity column set to the next values, in order. */
    public Iterator<Object[]> fill(Iterator<Object[]> rows) {
        int column = generated.identity();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return rows.hasNext();
            }

            @Override
            public Object[] next() {
                Object[] row = rows.next();
                long value = generated.nextIdentity(last);
                if (type == SqlType.INT && (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE)) {
                    throw new ColumbaException(ErrorCode.VALUE_OUT_OF_RANGE, "identity column " + columnName
                            + " overflows INT at " + value);
                }
                last = value;
                if (handedOut++ == 0) {
                    first = value;
                }
                row[column] = type == SqlType.INT ? (Object) (int) value : (Object) value;
                return row;
            }
        };
    }

    /** The values this fill handed out, or null if none. */
    GeneratedKeys keys() {
        return handedOut == 0 ? null : new GeneratedKeys(columnName, type == SqlType.BIGINT, first, generated.increment(), handedOut);
    }

    /**
     * Records the last value handed out in the table's options. Reads the entry again: the inserts
     * may have changed it (a root split moves the root page).
     */
    public void record(Transaction transaction) {
        if (last == null || last.equals(generated.lastIdentity())) {
            return;
        }
        CatalogEntry.Table entry = entry(database, transaction, objectId);
        Map<String, String> options = new HashMap<>(entry.options());
        options.put(GeneratedColumns.IDENTITY_LAST_OPTION + columnName, Long.toString(last));
        new Tables(database).setOptions(transaction, entry, options);
    }
}

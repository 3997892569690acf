package dev.columba.planner.session;

import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.planner.exec.StoreAssignment;
import dev.columba.planner.parser.SqlCopy;
import dev.columba.planner.parser.SqlOption;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.db.Database;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.txn.Transaction;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.function.LongConsumer;

/**
 * {@code COPY table [(columns)] FROM 'file.csv' [WITH (HEADER [= true], DELIMITER = ',', NULL = '')]}:
 * CSV (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes) into a table, through the
 * bulk path of a columnstore table (rowgroups compressed directly) or row inserts of a rowstore one,
 * in the session's write transaction. The file is read as UTF-8. Fields convert to the columns'
 * types by store assignment, as INSERT's values do: a string longer than its column fails with
 * 22001 and a number outside its column's range with 22003, never cut. A bad field, or a NULL for
 * a NOT NULL column, fails the whole COPY naming its line and column. Progress is reported every
 * {@value #PROGRESS_EVERY} rows.
 */
final class CopyCommand {
    static final int PROGRESS_EVERY = 1_000_000;

    private final Session session;

    CopyCommand(Session session) {
        this.session = session;
    }

    StatementResult execute(SqlCopy copy, LongConsumer progress) {
        Database database = session.database();
        Transaction transaction = session.writeTransaction();
        boolean succeeded = false;
        long rows;
        try {
            IoCounters counters = transaction.systemCounters();
            String name = copy.table().names.get(copy.table().names.size() - 1);
            CatalogEntry.Table table = database.catalog().byName(transaction.writes(), name, counters)
                    .filter(entry -> entry instanceof CatalogEntry.Table).map(entry -> (CatalogEntry.Table) entry)
                    .orElseThrow(() -> new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, "table " + name + " does not exist"));
            TableSchema schema = table.schema();
            int[] targets = new int[copy.columns().isEmpty() ? schema.size() : copy.columns().size()];
            for (int field = 0; field < targets.length; field++) {
                targets[field] = copy.columns().isEmpty() ? field : schema.indexOf(copy.columns().get(field).getSimple());
                if (targets[field] < 0) {
                    throw new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, "column " + copy.columns().get(field).getSimple()
                            + " does not exist in " + name);
                }
            }
            boolean header = copy.option("header").map(option -> option.valueText().map(text ->
                    text.equalsIgnoreCase("true") || text.equalsIgnoreCase("on")).orElse(true)).orElse(false);
            char delimiter = copy.option("delimiter").flatMap(SqlOption::valueText).map(text -> {
                if (text.length() != 1) {
                    throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "DELIMITER must be one character, was '" + text + "'");
                }
                return text.charAt(0);
            }).orElse(',');
            String nullText = copy.option("null").flatMap(SqlOption::valueText).orElse("");
            Path file;
            try {
                file = Path.of(copy.file());
            } catch (InvalidPathException e) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "COPY " + name + " FROM: '" + copy.file().replace("\0", "\\0")
                        + "' is not a file name: " + e.getReason());
            }
            try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                CsvRows csv = new CsvRows(reader, delimiter, nullText, name, schema, targets, file.toString(), progress);
                if (header) {
                    csv.skipRecord();
                }
                if (table.organization() == CatalogEntry.Organization.COLUMNSTORE) {
                    rows = ColumnstoreTable.open(database, table).bulkInsert(transaction, csv);
                } else {
                    TableStore store = new TableStore(table, database.catalog().indexesOf(transaction.writes(),
                            table.objectId(), counters));
                    rows = 0;
                    while (csv.hasNext()) {
                        Object[] row = csv.next();
                        try {
                            store.insert(transaction, row, counters);
                        } catch (ColumbaException e) {
                            throw csv.atLastRow(e);
                        }
                        rows++;
                    }
                }
            } catch (IOException e) {
                throw new ColumbaException(ErrorCode.IO_ERROR, "cannot read " + file + ": " + e.getMessage(), e);
            }
            succeeded = true;
        } finally {
            session.finishWrite(transaction, succeeded);
        }
        session.engine().gatherColumnstoreStatistics(session.reader(), copy.table().names.getLast());
        return new StatementResult.Update(rows, List.of(String.format(Locale.ROOT, "COPY %d", rows)),
                StatementStatistics.NONE);
    }

    /** The file's records as rows of the table (columns not copied are NULL). */
    private static final class CsvRows implements Iterator<Object[]> {
        private static final SqlType TEXT = SqlType.varchar(SqlType.VarcharType.MAX_LENGTH);

        private final BufferedReader reader;
        private final char delimiter;
        private final String nullText;
        private final String tableName;
        private final TableSchema schema;
        private final int[] targets;
        private final String fileName;
        private final LongConsumer progress;
        private final List<String> fields = new ArrayList<>();
        private final List<Boolean> quoted = new ArrayList<>();
        private long line = 1;
        private long records;
        private Object[] pending;
        private long pendingLine;
        private long returnedLine;
        private boolean ended;

        CsvRows(BufferedReader reader, char delimiter, String nullText, String tableName, TableSchema schema, int[] targets,
                String fileName, LongConsumer progress) {
            this.reader = reader;
            this.delimiter = delimiter;
            this.nullText = nullText;
            this.tableName = tableName;
            this.schema = schema;
            this.targets = targets;
            this.fileName = fileName;
            this.progress = progress;
        }

        /** {@code failure} of the row {@link #next} returned last (a duplicate key), naming its line. */
        ColumbaException atLastRow(ColumbaException failure) {
            return new ColumbaException(failure.errorCode(), fileName + " line " + returnedLine + ": "
                    + failure.getMessage(), failure);
        }

        void skipRecord() throws IOException {
            readRecord();
        }

        @Override
        public boolean hasNext() {
            if (pending == null && !ended) {
                try {
                    long startLine = line;
                    if (!readRecord()) {
                        ended = true;
                        return false;
                    }
                    pending = toRow(startLine);
                    pendingLine = startLine;
                } catch (IOException e) {
                    throw new ColumbaException(ErrorCode.IO_ERROR, "cannot read " + fileName + " at line " + line + ": "
                            + e.getMessage(), e);
                }
            }
            return pending != null;
        }

        @Override
        public Object[] next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Object[] row = pending;
            pending = null;
            returnedLine = pendingLine;
            records++;
            if (records % PROGRESS_EVERY == 0) {
                progress.accept(records);
            }
            return row;
        }

        private Object[] toRow(long startLine) {
            if (fields.size() != targets.length) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, fileName + " line " + startLine + " has "
                        + fields.size() + " fields, expected " + targets.length);
            }
            Object[] row = new Object[schema.size()];
            for (int field = 0; field < targets.length; field++) {
                String text = fields.get(field);
                if (!quoted.get(field) && text.equals(nullText)) {
                    continue;
                }
                try {
                    row[targets[field]] = StoreAssignment.convert(text, TEXT, schema.column(targets[field]), tableName);
                } catch (ColumbaException e) {
                    throw new ColumbaException(e.errorCode(), fileName + " line " + startLine + ", column "
                            + schema.column(targets[field]).name() + ": " + e.getMessage(), e);
                }
            }
            try {
                StoreAssignment.checkNotNull(row, schema, tableName, "COPY");
            } catch (ColumbaException e) {
                throw new ColumbaException(e.errorCode(), fileName + " line " + startLine + ": " + e.getMessage(), e);
            }
            return row;
        }

        /** Reads one record into {@link #fields}; false at the end of the file. */
        private boolean readRecord() throws IOException {
            fields.clear();
            quoted.clear();
            StringBuilder field = new StringBuilder();
            boolean inQuotes = false;
            boolean wasQuoted = false;
            long quoteLine = line;
            boolean any = false;
            int character;
            while ((character = reader.read()) >= 0) {
                any = true;
                char c = (char) character;
                if (inQuotes) {
                    if (c == '"') {
                        reader.mark(1);
                        int next = reader.read();
                        if (next == '"') {
                            field.append('"');
                        } else {
                            inQuotes = false;
                            if (next >= 0) {
                                reader.reset();
                            }
                        }
                    } else {
                        if (c == '\n') {
                            line++;
                        }
                        field.append(c);
                    }
                } else if (c == '"' && field.length() == 0) {
                    inQuotes = true;
                    quoteLine = line;
                    wasQuoted = true;
                } else if (c == delimiter) {
                    fields.add(field.toString());
                    quoted.add(wasQuoted);
                    field.setLength(0);
                    wasQuoted = false;
                } else if (c == '\n' || c == '\r') {
                    if (c == '\r') {
                        reader.mark(1);
                        if (reader.read() != '\n') {
                            reader.reset();
                        }
                    }
                    line++;
                    if (fields.isEmpty() && field.length() == 0 && !wasQuoted) {
                        continue;
                    }
                    break;
                } else {
                    field.append(c);
                }
            }
            if (inQuotes) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, fileName + " line " + quoteLine
                        + ": the quoted field that starts here is not closed before the end of the file");
            }
            if (!any || (fields.isEmpty() && field.length() == 0 && !wasQuoted && character < 0)) {
                return false;
            }
            fields.add(field.toString());
            quoted.add(wasQuoted);
            return true;
        }
    }
}

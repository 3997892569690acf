package dev.columba.columnstore.table;

import dev.columba.columnstore.build.ColumnBatch;
import dev.columba.columnstore.build.ColumnstoreOptions;
import dev.columba.columnstore.build.TrimReason;
import dev.columba.columnstore.file.ColumnstoreFiles;
import dev.columba.columnstore.file.RowgroupMappings;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.btree.BTree;
import dev.columba.storage.btree.Cursor;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.btree.ScanRange;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.buffer.WriteSet;
import dev.columba.storage.catalog.Catalog;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.db.Database;
import dev.columba.storage.row.RowCodec;
import dev.columba.storage.txn.Transaction;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A columnstore table at run time: its rowgroup directory, its delete bitmap and its delta
 * rowgroups, all rowstore B+trees of the database tagged with the table's object id (so one object
 * lock covers the whole table and everything commits and recovers with the log), plus the
 * immutable rowgroup files under {@code <db>/columnstore/<object id>/}.
 *
 * <p>Row positions: a row is addressed by its rowgroup id and its position in the rowgroup. In a
 * delta rowgroup the position is the delta B+tree's key (assigned in insert order, never reused);
 * compressing keeps the order, so a compressed rowgroup's row i is the delta's i-th surviving row.
 *
 * <p>Immutable and thread-safe; changes go through the writer's {@link Transaction}.
 */
public final class ColumnstoreTable {
    private final Database database;
    private final CatalogEntry.Table definition;
    private final ColumnstoreOptions options;
    private final BTree directory;
    private final RowCodec rows;

    private ColumnstoreTable(Database database, CatalogEntry.Table definition) {
        if (definition.organization() != CatalogEntry.Organization.COLUMNSTORE) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "table " + definition.name() + " is not a columnstore table");
        }
        this.database = database;
        this.definition = definition;
        this.options = ColumnstoreOptions.parse(definition.options());
        this.directory = new BTree(definition.objectId(), definition.rootPage(), definition.firstOamPage());
        this.rows = new RowCodec(definition.schema());
    }

    /**
     * Creates an empty columnstore table in the transaction.
     *
     * @throws ColumbaException OBJECT_ALREADY_EXISTS, or INVALID_ARGUMENT/INVALID_SETTING_VALUE for bad options
     */
    public static ColumnstoreTable create(Database database, Transaction transaction, String name, TableSchema schema,
                                          Map<String, String> options) {
        ColumnstoreOptions parsed = ColumnstoreOptions.parse(options);
        IoCounters counters = transaction.systemCounters();
        WriteSet writes = transaction.writes();
        Catalog catalog = database.catalog();
        if (catalog.byName(writes, name, counters).isPresent()) {
            throw new ColumbaException(ErrorCode.OBJECT_ALREADY_EXISTS, "table or index " + name + " already exists");
        }
        int objectId = catalog.allocateObjectId(writes, counters);
        BTree directory = BTree.create(writes, database.allocator(), objectId, counters);
        BTree deleteBitmap = BTree.create(writes, database.allocator(), objectId, counters);
        directory.put(writes, database.allocator(), MetadataFormat.TABLE_KEY, MetadataFormat.encode(
                new MetadataFormat.TableRecord(deleteBitmap.rootPage(), deleteBitmap.firstOamPage(), 0)), counters);
        // The options in canonical form, plus the SQL layer's column options (names with a colon) as given.
        Map<String, String> stored = new java.util.LinkedHashMap<>(parsed.toMap());
        options.forEach((key, value) -> {
            if (key.contains(":")) {
                stored.put(key, value);
            }
        });
        CatalogEntry.Table entry = new CatalogEntry.Table(objectId, name, schema, CatalogEntry.Organization.COLUMNSTORE,
                List.of(), false, directory.rootPage(), directory.firstOamPage(), stored, 0);
        catalog.put(writes, database.allocator(), entry, counters);
        return new ColumnstoreTable(database, entry);
    }

    /** The columnstore table named {@code name}, if there is one. */
    public static Optional<ColumnstoreTable> find(Database database, PageReader reader, String name, IoCounters counters) {
        return database.catalog().byName(reader, name, counters)
                .filter(entry -> entry instanceof CatalogEntry.Table table
                        && table.organization() == CatalogEntry.Organization.COLUMNSTORE)
                .map(entry -> new ColumnstoreTable(database, (CatalogEntry.Table) entry));
    }

    public static ColumnstoreTable open(Database database, CatalogEntry.Table definition) {
        return new ColumnstoreTable(database, definition);
    }

    public Database database() {
        return database;
    }

    public CatalogEntry.Table definition() {
        return definition;
    }

    public String name() {
        return definition.name();
    }

    public int objectId() {
        return definition.objectId();
    }

    public TableSchema schema() {
        return definition.schema();
    }

    public ColumnstoreOptions options() {
        return options;
    }

    public RowCodec rowCodec() {
        return rows;
    }

    /** Where the table's rowgroup files live. */
    public Path fileDirectory() {
        return ColumnstoreFiles.tableDirectory(database.directory(), definition.objectId());
    }

    /** The file of compressed rowgroup {@code rowgroupId}. */
    public Path rowgroupFile(int rowgroupId) {
        return fileDirectory().resolve(ColumnstoreFiles.rowgroupFileName(rowgroupId));
    }

    // ---- metadata -----------------------------------------------------------------------------

    MetadataFormat.TableRecord tableRecord(PageReader reader, IoCounters counters) {
        byte[] bytes = directory.get(reader, MetadataFormat.TABLE_KEY, counters);
        if (bytes == null) {
            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "columnstore table " + name() + " has no table record");
        }
        return MetadataFormat.decodeTable(bytes);
    }

    private BTree deleteBitmap(PageReader reader, IoCounters counters) {
        MetadataFormat.TableRecord record = tableRecord(reader, counters);
        return new BTree(objectId(), record.deleteBitmapRoot(), record.deleteBitmapOam());
    }

    /** Every live rowgroup (tombstones excluded), by id. */
    public List<RowgroupEntry> rowgroups(PageReader reader, IoCounters counters) {
        List<RowgroupEntry> entries = new ArrayList<>();
        try (Cursor cursor = directory.scan(reader, new ScanRange(null, true, MetadataFormat.TABLE_KEY, false),
                ReadAheadOptions.OFF, counters)) {
            while (cursor.next()) {
                RowgroupEntry entry = MetadataFormat.decodeRowgroup(cursor.key(), cursor.value());
                if (entry.state() != RowgroupState.TOMBSTONE) {
                    entries.add(entry);
                }
            }
        }
        return entries;
    }

    public Optional<RowgroupEntry> rowgroup(PageReader reader, int rowgroupId, IoCounters counters) {
        byte[] key = MetadataFormat.rowgroupKey(rowgroupId);
        byte[] bytes = directory.get(reader, key, counters);
        return bytes == null ? Optional.empty() : Optional.of(MetadataFormat.decodeRowgroup(key, bytes));
    }

    void putRowgroup(WriteSet writes, RowgroupEntry entry, IoCounters counters) {
        directory.put(writes, database.allocator(), MetadataFormat.rowgroupKey(entry.rowgroupId()),
                MetadataFormat.encode(entry), counters);
    }

    void removeRowgroup(WriteSet writes, int rowgroupId, IoCounters counters) {
        directory.delete(writes, database.allocator(), MetadataFormat.rowgroupKey(rowgroupId), counters);
    }

    /** Reserves the next rowgroup id in the transaction. */
    int nextRowgroupId(WriteSet writes, IoCounters counters) {
        MetadataFormat.TableRecord record = tableRecord(writes, counters);
        directory.put(writes, database.allocator(), MetadataFormat.TABLE_KEY, MetadataFormat.encode(
                new MetadataFormat.TableRecord(record.deleteBitmapRoot(), record.deleteBitmapOam(),
                        record.nextRowgroupId() + 1)), counters);
        return record.nextRowgroupId();
    }

    // ---- delta rowgroups ----------------------------------------------------------------------

    BTree deltaTree(RowgroupEntry entry) {
        if (!entry.isDelta()) {
            throw new IllegalArgumentException("rowgroup " + entry.rowgroupId() + " is " + entry.state());
        }
        return new BTree(objectId(), entry.deltaRoot(), entry.deltaOam());
    }

    /**
     * Inserts one row (values in column order) into the OPEN delta rowgroup, opening one if there is
     * none; a delta rowgroup that reaches {@code rowgroup_max_rows} becomes CLOSED, for the tuple
     * mover. Returns the row's rowgroup id and position as {@code (rowgroup << 32) | position}.
     *
     * @throws ColumbaException the row codec's validation errors, naming the column
     */
    public long insert(Transaction transaction, Object[] row) {
        WriteSet writes = transaction.writes();
        IoCounters counters = transaction.systemCounters();
        byte[] encoded = rows.encode(row);
        if (encoded.length > BTree.maxEntryLength() - 4) {
            throw new ColumbaException(ErrorCode.ROW_TOO_LARGE, "row of " + encoded.length + " bytes exceeds the delta"
                    + " rowgroup maximum of " + (BTree.maxEntryLength() - 4) + " bytes in table " + name());
        }
        RowgroupEntry open = null;
        for (RowgroupEntry entry : rowgroups(writes, counters)) {
            if (entry.state() == RowgroupState.OPEN) {
                open = entry;
                break;
            }
        }
        if (open == null) {
            int rowgroupId = nextRowgroupId(writes, counters);
            BTree tree = BTree.create(writes, database.allocator(), objectId(), counters);
            open = new RowgroupEntry(rowgroupId, RowgroupState.OPEN, 0, 0, 0, TrimReason.NO_TRIM, nowMicros(),
                    tree.rootPage(), tree.firstOamPage());
        }
        int position = (int) open.totalRows();
        deltaTree(open).insert(writes, database.allocator(), MetadataFormat.deltaKey(position), encoded, counters);
        RowgroupEntry updated = open.withRows(position + 1L);
        if (updated.totalRows() >= options.rowgroupMaxRows()) {
            updated = updated.withState(RowgroupState.CLOSED);
            transaction.noteClosedDeltaRowgroup();
        }
        putRowgroup(writes, updated, counters);
        transaction.adjustRowCount(objectId(), 1);
        return ((long) open.rowgroupId() << 32) | position;
    }

    /**
     * Deletes the row at {@code position} of rowgroup {@code rowgroupId}: removed from a delta
     * rowgroup, marked in the delete bitmap of a compressed one.
     *
     * @return false if there was no such live row
     */
    public boolean delete(Transaction transaction, int rowgroupId, int position) {
        WriteSet writes = transaction.writes();
        IoCounters counters = transaction.systemCounters();
        Optional<RowgroupEntry> found = rowgroup(writes, rowgroupId, counters);
        if (found.isEmpty() || found.get().state() == RowgroupState.TOMBSTONE || position < 0
                || position >= found.get().totalRows()) {
            return false;
        }
        RowgroupEntry entry = found.get();
        boolean deleted;
        if (entry.isDelta()) {
            deleted = deltaTree(entry).delete(writes, database.allocator(), MetadataFormat.deltaKey(position), counters);
        } else {
            deleted = deleteBitmap(writes, counters).insert(writes, database.allocator(),
                    MetadataFormat.deletedRowKey(rowgroupId, position), new byte[0], counters);
        }
        if (deleted) {
            putRowgroup(writes, entry.withDeletedRows(entry.deletedRows() + 1), counters);
            transaction.adjustRowCount(objectId(), -1);
        }
        return deleted;
    }

    /** The positions deleted from compressed rowgroup {@code rowgroupId}. */
    public BitSet deletedRows(PageReader reader, int rowgroupId, IoCounters counters) {
        BitSet deleted = new BitSet();
        ScanRange range = new ScanRange(MetadataFormat.rowgroupKey(rowgroupId), true,
                MetadataFormat.rowgroupKey(rowgroupId + 1), false);
        try (Cursor cursor = deleteBitmap(reader, counters).scan(reader, range, ReadAheadOptions.OFF, counters)) {
            while (cursor.next()) {
                deleted.set(MetadataFormat.deletedPositionOf(cursor.key()));
            }
        }
        return deleted;
    }

    /**
     * A cursor over a delta rowgroup's rows in position order: the key is the position (4 bytes,
     * big-endian), the value the row. The caller closes it.
     */
    public Cursor deltaCursor(PageReader reader, RowgroupEntry entry, IoCounters counters) {
        return deltaTree(entry).scan(reader, ScanRange.ALL, ReadAheadOptions.OFF, counters);
    }

    /** A delta rowgroup's rows in position order: each call of the visitor gets the position and the row. */
    public void forEachDeltaRow(PageReader reader, RowgroupEntry entry, IoCounters counters, DeltaRowVisitor visitor) {
        try (Cursor cursor = deltaTree(entry).scan(reader, ScanRange.ALL, ReadAheadOptions.OFF, counters)) {
            while (cursor.next()) {
                MemorySegment page = cursor.page();
                int position = page.get(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN),
                        cursor.keyOffset());
                visitor.visit(position, page, cursor.valueOffset());
            }
        }
    }

    /** Receives delta rows: the row's bytes are valid only during the call. */
    @FunctionalInterface
    public interface DeltaRowVisitor {
        void visit(int position, MemorySegment page, int rowOffset);
    }

    /** The table's primary dictionaries (read from their files on first use). */
    public dev.columba.columnstore.build.PrimaryDictionaries primaryDictionaries() {
        return RowgroupWriter.primaries(this);
    }

    /** The names of the rowgroup files {@code reader}'s state refers to: one per COMPRESSED rowgroup. */
    java.util.Set<String> liveFileNames(PageReader reader, IoCounters counters) {
        java.util.Set<String> live = new java.util.HashSet<>();
        for (RowgroupEntry entry : rowgroups(reader, counters)) {
            if (entry.state() == RowgroupState.COMPRESSED) {
                live.add(ColumnstoreFiles.rowgroupFileName(entry.rowgroupId()));
            }
        }
        return live;
    }

    /**
     * Removes rowgroup files no committed rowgroup refers to (left by a rolled-back or crashed
     * build, or by a merge) and temporary files. Runs inside the writer's transaction, the only
     * writer of files.
     *
     * <p>A commit is visible before it is durable (a full commit's committer is still waiting for
     * its sync; a delayed commit has returned), and a crash takes such a commit back. So before
     * deleting a rowgroup file the log is synced to its end: the commit that stopped referring to
     * the file is then durable, and no crash can bring back a reference to a deleted file.
     *
     * <p>A file is live while either the transaction's own state ({@code reader}) or the committed
     * state refers to it. A REORGANIZE that merges two groups of rowgroups drops the first group's
     * entries in its transaction and then starts the second group's writer, which runs this: judged
     * by the transaction's state alone, the first group's files were deleted before the transaction
     * committed, and a crash (or a rollback) left committed rowgroups without their files (found by
     * the kill -9 campaign, seed 20261129, kill 19: {@code open failed on columnstore/101/9.crg}).
     * Only the writer holding the turn installs commits, so the committed state cannot change under it.
     */
    void removeOrphanFiles(PageReader reader, IoCounters counters) {
        if (!Files.isDirectory(fileDirectory())) {
            return;
        }
        java.util.Set<String> live = liveFileNames(reader, counters);
        // The committed table as the committed catalog describes it (its directory's root may differ
        // from this transaction's); absent when this transaction created it.
        find(database, database.bufferPool(), name(), counters).filter(committed -> committed.objectId() == objectId())
                .ifPresent(committed -> live.addAll(committed.liveFileNames(database.bufferPool(), counters)));
        try (java.util.stream.Stream<Path> paths = Files.list(fileDirectory())) {
            boolean logSynced = false;
            for (Path path : paths.toList()) {
                String name = path.getFileName().toString();
                if (name.endsWith(ColumnstoreFiles.TEMPORARY_SUFFIX)) {
                    Files.deleteIfExists(path);
                } else if (ColumnstoreFiles.rowgroupIdOfName(name) >= 0 && !live.contains(name)) {
                    if (!logSynced) {
                        database.log().flush(database.log().endLsn());
                        logSynced = true;
                    }
                    RowgroupMappings.of(database).forget(path);
                    Files.deleteIfExists(path);
                }
            }
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot clean " + fileDirectory() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Inserts rows (values in column order). At least {@code bulk_min_rows} of them are compressed
     * straight into rowgroups (the last one trimmed BULKLOAD); fewer go to the delta store.
     *
     * @return the rows inserted
     */
    public long bulkInsert(Transaction transaction, java.util.Iterator<Object[]> rows) {
        return bulkInsert(transaction, rows, 1);
    }

    /**
     * As {@link #bulkInsert(Transaction, java.util.Iterator)}, each rowgroup's columns encoded by
     * up to {@code threads} threads; the rows are taken on the caller's.
     */
    public long bulkInsert(Transaction transaction, java.util.Iterator<Object[]> rows, int threads) {
        // Rows go to the rowgroup builder this many at a time; they are copied, as the iterator may
        // reuse its arrays.
        final int batchRows = 16_384;
        checkThreads(threads);
        List<Object[]> buffered = new ArrayList<>();
        while (buffered.size() < options.bulkMinRows() && rows.hasNext()) {
            Object[] row = rows.next();
            rows().encodedSize(row);
            buffered.add(row.clone());
        }
        if (buffered.size() < options.bulkMinRows()) {
            for (Object[] row : buffered) {
                insert(transaction, row);
            }
            return buffered.size();
        }
        long count = 0;
        java.util.concurrent.ForkJoinPool encoders = encoders(threads);
        try (RowgroupWriter writer = new RowgroupWriter(this, transaction)) {
            writer.encodeOn(encoders);
            writer.addAll(buffered);
            count += buffered.size();
            buffered.clear();
            while (rows.hasNext()) {
                Object[] row = rows.next();
                rows().encodedSize(row);
                buffered.add(row.clone());
                count++;
                if (buffered.size() == batchRows) {
                    writer.addAll(buffered);
                    buffered.clear();
                }
            }
            writer.addAll(buffered);
            writer.finish(TrimReason.BULKLOAD);
        } finally {
            if (encoders != null) {
                encoders.shutdownNow();
            }
        }
        transaction.adjustRowCount(objectId(), count);
        return count;
    }

    /**
     * Inserts the rows of {@code batches} in order, as {@link #bulkInsert(Transaction,
     * java.util.Iterator, int)} inserts the same rows, handed over column by column
     * ({@link ColumnBatch}, a bulk load's parser fills them): at least {@code bulk_min_rows} rows are
     * compressed straight into rowgroups, each rowgroup's columns encoded by up to {@code threads}
     * threads; fewer go to the delta store. The batches' values must already be in their columns'
     * canonical form with NOT NULL checked (store assignment's work); the builder keeps no batch.
     *
     * @return the rows inserted
     */
    public long bulkInsertBatches(Transaction transaction, java.util.Iterator<ColumnBatch> batches, int threads) {
        checkThreads(threads);
        boolean measureRows = !rows().everyRowFits();
        List<ColumnBatch> buffered = new ArrayList<>();
        long count = 0;
        while (count < options.bulkMinRows() && batches.hasNext()) {
            ColumnBatch batch = batches.next();
            measure(batch, measureRows);
            buffered.add(batch);
            count += batch.rows();
        }
        if (count < options.bulkMinRows()) {
            for (ColumnBatch batch : buffered) {
                for (int row = 0; row < batch.rows(); row++) {
                    insert(transaction, batch.row(row));
                }
            }
            return count;
        }
        java.util.concurrent.ForkJoinPool encoders = encoders(threads);
        try (RowgroupWriter writer = new RowgroupWriter(this, transaction)) {
            writer.encodeOn(encoders);
            for (ColumnBatch batch : buffered) {
                writer.addBatch(batch);
            }
            buffered.clear();
            while (batches.hasNext()) {
                ColumnBatch batch = batches.next();
                measure(batch, measureRows);
                writer.addBatch(batch);
                count += batch.rows();
            }
            writer.finish(TrimReason.BULKLOAD);
        } finally {
            if (encoders != null) {
                encoders.shutdownNow();
            }
        }
        transaction.adjustRowCount(objectId(), count);
        return count;
    }

    /** The row-size check of {@link RowCodec#encodedSize}, row by row only where a row could fail it. */
    private void measure(ColumnBatch batch, boolean measureRows) {
        if (measureRows) {
            for (int row = 0; row < batch.rows(); row++) {
                rows().encodedSize(batch.row(row));
            }
        }
    }

    private static void checkThreads(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, was " + threads);
        }
    }

    /** A pool to encode each finished rowgroup's columns on; null for one thread. */
    private static java.util.concurrent.ForkJoinPool encoders(int threads) {
        return threads > 1 ? new java.util.concurrent.ForkJoinPool(threads) : null;
    }

    private RowCodec rows() {
        return rows;
    }

    /**
     * Compresses delta rowgroup {@code rowgroupId} (OPEN or CLOSED) into compressed rowgroups, in
     * the transaction: its rows in position order become the new rowgroups' rows, the delta's entry
     * is removed and its pages freed. Readers see the delta or the compressed rowgroups, never both
     * and never neither: the commit installs the change while no statement reads the table.
     *
     * @return the ids of the new rowgroups
     */
    public List<Integer> compressDelta(Transaction transaction, int rowgroupId, TrimReason reason) {
        IoCounters counters = transaction.systemCounters();
        RowgroupEntry entry = rowgroup(transaction.writes(), rowgroupId, counters)
                .filter(RowgroupEntry::isDelta)
                .orElseThrow(() -> new ColumbaException(ErrorCode.INVALID_ARGUMENT, "rowgroup " + rowgroupId
                        + " of " + name() + " is not a delta rowgroup"));
        List<Integer> created;
        try (RowgroupWriter writer = new RowgroupWriter(this, transaction)) {
            forEachDeltaRow(transaction.writes(), entry, counters,
                    (position, page, offset) -> writer.add(rows.decode(page, offset)));
            created = writer.finish(reason);
        }
        removeRowgroup(transaction.writes(), rowgroupId, counters);
        database.allocator().dropObject(transaction.writes(), entry.deltaOam(), counters);
        return created;
    }

    /** What a reorganize or rebuild did. */
    public record Maintenance(int deltasCompressed, int rowgroupsMerged, int rowgroupsWritten, long rowsRewritten) {
    }

    /**
     * {@code ALTER INDEX ... REORGANIZE}: compresses the CLOSED delta rowgroups (and the OPEN one with
     * {@code compressAllRowGroups}), then rewrites compressed rowgroups that lost at least 10% of their
     * rows to deletes, merging runs of small ones whose live rows fit one rowgroup. New rowgroups are
     * trimmed REORG. Old files are left for the next write's clean-up, after this commits.
     */
    public Maintenance reorganize(Transaction transaction, boolean compressAllRowGroups) {
        IoCounters counters = transaction.systemCounters();
        int compressedDeltas = 0;
        for (RowgroupEntry entry : rowgroups(transaction.writes(), counters)) {
            if (entry.state() == RowgroupState.CLOSED || (compressAllRowGroups && entry.state() == RowgroupState.OPEN
                    && entry.totalRows() > entry.deletedRows())) {
                compressDelta(transaction, entry.rowgroupId(), entry.state() == RowgroupState.CLOSED
                        ? TrimReason.NO_TRIM : TrimReason.REORG);
                compressedDeltas++;
            }
        }
        List<List<RowgroupEntry>> merges = new ArrayList<>();
        List<RowgroupEntry> group = new ArrayList<>();
        long groupRows = 0;
        for (RowgroupEntry entry : rowgroups(transaction.writes(), counters)) {
            if (entry.state() != RowgroupState.COMPRESSED) {
                continue;
            }
            long live = entry.totalRows() - entry.deletedRows();
            boolean candidate = entry.deletedRows() * 10 >= entry.totalRows() && entry.deletedRows() > 0
                    || entry.totalRows() < options.rowgroupMaxRows() / 2;
            if (!candidate) {
                continue;
            }
            if (groupRows + live > options.rowgroupMaxRows()) {
                merges.add(group);
                group = new ArrayList<>();
                groupRows = 0;
            }
            group.add(entry);
            groupRows += live;
        }
        merges.add(group);
        int merged = 0;
        int written = 0;
        long rewritten = 0;
        for (List<RowgroupEntry> candidates : merges) {
            boolean worthIt = candidates.size() > 1 || (candidates.size() == 1 && candidates.get(0).deletedRows() > 0);
            if (!worthIt) {
                continue;
            }
            long[] rowsSeen = new long[1];
            try (RowgroupWriter writer = new RowgroupWriter(this, transaction)) {
                for (RowgroupEntry entry : candidates) {
                    BitSet deleted = entry.deletedRows() > 0 ? deletedRows(transaction.writes(), entry.rowgroupId(), counters)
                            : null;
                    CompressedRows.forEach(this, entry, deleted, row -> {
                        writer.add(row);
                        rowsSeen[0]++;
                    });
                }
                written += writer.finish(TrimReason.REORG).size();
            }
            for (RowgroupEntry entry : candidates) {
                dropCompressed(transaction, entry, counters);
            }
            merged += candidates.size();
            rewritten += rowsSeen[0];
        }
        return new Maintenance(compressedDeltas, merged, written, rewritten);
    }

    /**
     * {@code ALTER INDEX ... REBUILD}: every live row, compressed or delta, into fresh full rowgroups
     * (the last trimmed RESIDUAL_ROW_GROUP); deleted rows are gone afterwards.
     */
    public Maintenance rebuild(Transaction transaction) {
        IoCounters counters = transaction.systemCounters();
        List<RowgroupEntry> old = rowgroups(transaction.writes(), counters);
        long[] rowsSeen = new long[1];
        int written;
        try (RowgroupWriter writer = new RowgroupWriter(this, transaction)) {
            for (RowgroupEntry entry : old) {
                if (entry.state() == RowgroupState.COMPRESSED) {
                    BitSet deleted = entry.deletedRows() > 0 ? deletedRows(transaction.writes(), entry.rowgroupId(), counters)
                            : null;
                    CompressedRows.forEach(this, entry, deleted, row -> {
                        writer.add(row);
                        rowsSeen[0]++;
                    });
                } else {
                    forEachDeltaRow(transaction.writes(), entry, counters, (position, page, offset) -> {
                        writer.add(rows.decode(page, offset));
                        rowsSeen[0]++;
                    });
                }
            }
            written = writer.finish(TrimReason.RESIDUAL_ROW_GROUP).size();
        }
        int deltas = 0;
        for (RowgroupEntry entry : old) {
            if (entry.state() == RowgroupState.COMPRESSED) {
                dropCompressed(transaction, entry, counters);
            } else {
                removeRowgroup(transaction.writes(), entry.rowgroupId(), counters);
                database.allocator().dropObject(transaction.writes(), entry.deltaOam(), counters);
                deltas++;
            }
        }
        return new Maintenance(deltas, old.size() - deltas, written, rowsSeen[0]);
    }

    /** Removes a compressed rowgroup's entry and its delete-bitmap entries; its file becomes an orphan. */
    private void dropCompressed(Transaction transaction, RowgroupEntry entry, IoCounters counters) {
        WriteSet writes = transaction.writes();
        if (entry.deletedRows() > 0) {
            BTree bitmap = deleteBitmap(writes, counters);
            BitSet deleted = deletedRows(writes, entry.rowgroupId(), counters);
            for (int position = deleted.nextSetBit(0); position >= 0; position = deleted.nextSetBit(position + 1)) {
                bitmap.delete(writes, database.allocator(), MetadataFormat.deletedRowKey(entry.rowgroupId(), position),
                        counters);
            }
        }
        removeRowgroup(writes, entry.rowgroupId(), counters);
    }

    /**
     * Drops the table in the transaction: its delta rowgroups, delete bitmap, rowgroup directory and
     * catalog entry. Its files stay until the caller deletes {@link #fileDirectory()} after the
     * commit (a directory no table refers to is moved into {@code damaged/} when the engine next
     * opens, {@link OrphanFiles}).
     */
    public void drop(Transaction transaction) {
        IoCounters counters = transaction.systemCounters();
        WriteSet writes = transaction.writes();
        for (RowgroupEntry entry : rowgroups(writes, counters)) {
            if (entry.isDelta()) {
                database.allocator().dropObject(writes, entry.deltaOam(), counters);
            }
        }
        MetadataFormat.TableRecord record = tableRecord(writes, counters);
        database.allocator().dropObject(writes, record.deleteBitmapOam(), counters);
        database.allocator().dropObject(writes, definition.firstOamPage(), counters);
        database.catalog().remove(writes, database.allocator(), objectId(), counters);
    }

    /** Creates the directory of the table's rowgroup files if it is missing. */
    public void ensureFileDirectory() {
        try {
            Files.createDirectories(fileDirectory());
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot create " + fileDirectory() + ": " + e.getMessage(), e);
        }
    }

    static long nowMicros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }
}

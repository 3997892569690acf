package dev.columba.bench.columnstore;

import dev.columba.columnstore.scan.ColumnstoreScan;
import dev.columba.columnstore.scan.ScanOptions;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.core.batch.Batch;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.table.TableCursor;
import dev.columba.storage.table.TableScan;
import dev.columba.storage.table.TableStore;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * The suite's query, {@code SELECT Id, CreationDate, PostId, Score, [Text], UserId FROM <table>}
 * with every column produced (the columnstore decodes every segment into Arrow vectors, the
 * rowstore decodes every column of every row), folded into a {@link CommentsScanResult}.
 */
final class CommentsScans {
    private static final String ID = "Id";
    private static final String POST_ID = "PostId";
    private static final String SCORE = "Score";
    private static final String TEXT = "Text";
    private static final String USER_ID = "UserId";

    private CommentsScans() {
    }

    /**
     * A columnstore scan's result and what its read-ahead did; {@code readAheadRequestsAhead} of the
     * requests went into rowgroups after the one being read (the window).
     */
    record ColumnstoreScanned(CommentsScanResult result, long readAheadRequests, long readAheadRequestsAhead,
                              long largestReadAheadBytes) {
    }

    /** Where the checked columns are in a comments schema; {@code text} is -1 without Text. */
    private record Positions(int id, int postId, int score, int text, int userId) {
        static Positions of(TableSchema schema) {
            return new Positions(schema.indexOf(ID), schema.indexOf(POST_ID), schema.indexOf(SCORE),
                    schema.indexOf(TEXT), schema.indexOf(USER_ID));
        }
    }

    /**
     * Every row of {@code table}, every column, in batches; read-ahead in requests of the default
     * size, {@code readAheadDepthBytes} of them kept ahead across rowgroups.
     */
    static ColumnstoreScanned columnstore(ColumnstoreTable table, PageReader reader, boolean readAhead,
                                          long readAheadDepthBytes, IoCounters counters, BufferAllocator allocator) {
        TableSchema schema = table.schema();
        Positions at = Positions.of(schema);
        ScanOptions options = ScanOptions.all(schema.size()).withReadAhead(readAhead)
                .withReadAhead(ScanOptions.DEFAULT_READ_AHEAD_MAX_BYTES, readAheadDepthBytes);
        long rows = 0;
        long sumOfIds = 0;
        long sumOfPostIds = 0;
        long sumOfScores = 0;
        long userIds = 0;
        long texts = 0;
        try (ColumnstoreScan scan = new ColumnstoreScan(table, reader, options, counters, allocator)) {
            Batch batch;
            while ((batch = scan.next()) != null) {
                // The projection is every column in schema order, so batch columns are schema positions.
                IntVector ids = (IntVector) batch.column(at.id());
                IntVector postIds = (IntVector) batch.column(at.postId());
                IntVector scores = (IntVector) batch.column(at.score());
                IntVector users = (IntVector) batch.column(at.userId());
                VarCharVector text = at.text() < 0 ? null : (VarCharVector) batch.column(at.text());
                int selected = batch.selectedCount();
                for (int index = 0; index < selected; index++) {
                    int rowInBatch = batch.selectedRow(index);
                    sumOfIds += ids.get(rowInBatch);
                    sumOfPostIds += postIds.get(rowInBatch);
                    if (!scores.isNull(rowInBatch)) {
                        sumOfScores += scores.get(rowInBatch);
                    }
                    if (!users.isNull(rowInBatch)) {
                        userIds++;
                    }
                    if (text != null && !text.isNull(rowInBatch)) {
                        texts++;
                    }
                }
                rows += selected;
            }
            return new ColumnstoreScanned(new CommentsScanResult(rows, sumOfIds, sumOfPostIds, sumOfScores, userIds,
                    texts), scan.readAheadRequests(), scan.readAheadRequestsAhead(), scan.largestReadAheadBytes());
        }
    }

    /** Every row of {@code store} in key order ({@code Id}), every column decoded. */
    static CommentsScanResult rowstore(TableStore store, PageReader reader, ReadAheadOptions readAhead,
                                       IoCounters counters) {
        RowFold fold = new RowFold(store.schema());
        try (TableCursor cursor = store.scan(reader, TableScan.all(readAhead), counters)) {
            while (cursor.next()) {
                fold.add(cursor.row());
            }
        }
        return fold.result();
    }

    /**
     * The fold of rows given one at a time as arrays of Java values (a rowstore scan's, or the
     * generator's while the tables load, for the expected result).
     */
    static final class RowFold {
        private final Positions at;
        private long rows;
        private long sumOfIds;
        private long sumOfPostIds;
        private long sumOfScores;
        private long userIds;
        private long texts;

        RowFold(TableSchema schema) {
            this.at = Positions.of(schema);
        }

        void add(Object[] row) {
            rows++;
            sumOfIds += (Integer) row[at.id()];
            sumOfPostIds += (Integer) row[at.postId()];
            if (row[at.score()] != null) {
                sumOfScores += (Integer) row[at.score()];
            }
            if (row[at.userId()] != null) {
                userIds++;
            }
            if (at.text() >= 0 && row[at.text()] != null) {
                texts++;
            }
        }

        CommentsScanResult result() {
            return new CommentsScanResult(rows, sumOfIds, sumOfPostIds, sumOfScores, userIds, texts);
        }
    }
}

package dev.columba.formats.parquet;

import dev.columba.columnstore.build.ColumnBatch;
import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.planner.copy.CopyFileFormat;
import dev.columba.planner.copy.CopyOptions;
import dev.columba.planner.copy.ExportFile;
import dev.columba.planner.copy.ExportWriter;
import dev.columba.planner.copy.FileColumn;
import dev.columba.planner.copy.ImportReader;
import dev.columba.planner.copy.ImportRows;
import dev.columba.planner.copy.ImportTarget;
import dev.columba.planner.copy.ImportedColumn;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * COPY's Parquet format, through parquet-java's file and page readers ({@link ParquetFileReader},
 * whose pages {@link ColumnChunkDecoder} decodes in bulk) and its {@link ParquetWriter}, on local files without Hadoop's file
 * systems ({@link LocalInputFile}, {@link LocalOutputFile}) and with our own codecs
 * ({@link ParquetCodecs}).
 *
 * <p>Export writes one flat message, a field per column, {@code required} for NOT NULL columns
 * and {@code optional} otherwise, SNAPPY-compressed pages, dictionary encoding where parquet-java
 * chooses it: BOOLEAN boolean; INT int32 INTEGER(32,true); BIGINT int64 INTEGER(64,true); DOUBLE
 * double; DECIMAL(p,s) int64 DECIMAL(p,s) up to p 18, above it fixed_len_byte_array(16)
 * DECIMAL(p,s) (as DuckDB writes it); VARCHAR and CHAR binary STRING; DATE int32 DATE; TIMESTAMP
 * int64 TIMESTAMP(MICROS, not adjusted to UTC).
 *
 * <p>Import reads a flat schema of primitive fields (a repeated or group field is refused naming
 * it, 0A000): boolean BOOLEAN; int32 INT (DATE, DECIMAL, unsigned INTEGER(32) as BIGINT); int64
 * BIGINT (DECIMAL, TIMESTAMP of any unit — nanoseconds cut to microseconds — unsigned
 * INTEGER(64) as DECIMAL(20,0)); float and double DOUBLE; binary STRING, ENUM or JSON VARCHAR;
 * binary and fixed_len_byte_array DECIMAL DECIMAL up to precision 38. Anything else — int96,
 * TIME, un-annotated binary (Columba has no VARBINARY), UUID, intervals — is refused naming the
 * column. A file that is not Parquet, cut short or with pages that do not decode is BAD_COPY_FILE
 * (22P04); parquet-java checks page checksums when the writer wrote them.
 */
public final class ParquetFileFormat implements CopyFileFormat {
    /** Rows per {@link ColumnBatch} handed to the bulk path, at most. */
    static final int BATCH_ROWS = 1 << 16;
    /**
     * Row groups written of about this many bytes (parquet-java's default is 128 MB): a reader
     * decodes a row group at a time, several in parallel, and holds each whole.
     */
    static final long ROW_GROUP_BYTES = 32L << 20;

    @Override
    public CopyOptions.FileFormat format() {
        return CopyOptions.FileFormat.PARQUET;
    }

    @Override
    public ImportReader open(Path file, String fileName, ImportTarget target, int maxDop, BufferAllocator allocator) {
        return new Reader(file, fileName, target, maxDop);
    }

    @Override
    public ExportWriter create(Path file, String fileName, TableSchema schema, BufferAllocator allocator) {
        return new Writer(file, fileName, schema);
    }

    /** How a Parquet column's values are read and handed on. */
    enum ValueKind { BOOLEAN, INT32, UINT32, INT64, UINT64, TIMESTAMP_MILLIS, TIMESTAMP_MICROS, TIMESTAMP_NANOS,
        FLOAT, DOUBLE, STRING, DECIMAL_BINARY }

    private record ParquetColumn(FileColumn fileColumn, ValueKind kind) {
    }

    static FileColumn fileColumn(Type field) {
        return parquetColumn(field).fileColumn();
    }

    private static ParquetColumn parquetColumn(Type field) {
        String name = field.getName();
        if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)) {
            return new ParquetColumn(new FileColumn(name, null, "Parquet " + (field.isPrimitive() ? "repeated " : "group ")
                    + field.toString().trim()), null);
        }
        PrimitiveType primitive = field.asPrimitiveType();
        LogicalTypeAnnotation logical = primitive.getLogicalTypeAnnotation();
        String description = "Parquet " + primitive.getPrimitiveTypeName().name().toLowerCase(java.util.Locale.ROOT)
                + (logical == null ? "" : " " + logical);
        SqlType type = null;
        ValueKind kind = null;
        switch (primitive.getPrimitiveTypeName()) {
            case BOOLEAN -> {
                if (logical == null) {
                    type = SqlType.BOOLEAN;
                    kind = ValueKind.BOOLEAN;
                }
            }
            case INT32 -> {
                switch (logical) {
                    case null -> type = SqlType.INT;
                    case LogicalTypeAnnotation.IntLogicalTypeAnnotation integer ->
                            type = integer.isSigned() || integer.getBitWidth() < 32 ? SqlType.INT : SqlType.BIGINT;
                    case LogicalTypeAnnotation.DateLogicalTypeAnnotation ignored -> type = SqlType.DATE;
                    case LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal -> type = decimal(decimal);
                    default -> {
                    }
                }
                kind = logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation integer && !integer.isSigned()
                        && integer.getBitWidth() == 32 ? ValueKind.UINT32 : ValueKind.INT32;
            }
            case INT64 -> {
                kind = ValueKind.INT64;
                switch (logical) {
                    case null -> type = SqlType.BIGINT;
                    case LogicalTypeAnnotation.IntLogicalTypeAnnotation integer when integer.isSigned() -> type = SqlType.BIGINT;
                    case LogicalTypeAnnotation.IntLogicalTypeAnnotation ignored -> {
                        type = SqlType.decimal(20, 0);
                        kind = ValueKind.UINT64;
                    }
                    case LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal -> type = decimal(decimal);
                    case LogicalTypeAnnotation.TimestampLogicalTypeAnnotation timestamp -> {
                        type = SqlType.TIMESTAMP;
                        kind = switch (timestamp.getUnit()) {
                            case MILLIS -> ValueKind.TIMESTAMP_MILLIS;
                            case MICROS -> ValueKind.TIMESTAMP_MICROS;
                            case NANOS -> ValueKind.TIMESTAMP_NANOS;
                        };
                    }
                    default -> {
                    }
                }
            }
            case FLOAT -> {
                type = SqlType.DOUBLE;
                kind = ValueKind.FLOAT;
            }
            case DOUBLE -> {
                type = SqlType.DOUBLE;
                kind = ValueKind.DOUBLE;
            }
            case BINARY, FIXED_LEN_BYTE_ARRAY -> {
                switch (logical) {
                    case LogicalTypeAnnotation.StringLogicalTypeAnnotation ignored when isBinary(primitive) -> {
                        type = SqlType.varchar(SqlType.VarcharType.MAX_LENGTH);
                        kind = ValueKind.STRING;
                    }
                    case LogicalTypeAnnotation.EnumLogicalTypeAnnotation ignored when isBinary(primitive) -> {
                        type = SqlType.varchar(SqlType.VarcharType.MAX_LENGTH);
                        kind = ValueKind.STRING;
                    }
                    case LogicalTypeAnnotation.JsonLogicalTypeAnnotation ignored when isBinary(primitive) -> {
                        type = SqlType.varchar(SqlType.VarcharType.MAX_LENGTH);
                        kind = ValueKind.STRING;
                    }
                    case LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal -> {
                        type = decimal(decimal);
                        kind = ValueKind.DECIMAL_BINARY;
                    }
                    case null, default -> {
                    }
                }
            }
            case INT96 -> {
            }
        }
        return new ParquetColumn(new FileColumn(name, type, description), type == null ? null : kind);
    }

    private static boolean isBinary(PrimitiveType primitive) {
        return primitive.getPrimitiveTypeName() == PrimitiveTypeName.BINARY;
    }

    private static SqlType decimal(LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal) {
        return decimal.getPrecision() >= 1 && decimal.getPrecision() <= SqlType.DecimalType.MAX_PRECISION
                && decimal.getScale() >= 0 && decimal.getScale() <= decimal.getPrecision()
                ? SqlType.decimal(decimal.getPrecision(), decimal.getScale()) : null;
    }

    private static ColumbaException damaged(String table, String fileName, Exception e) {
        if (e instanceof ColumbaException columba) {
            return columba;
        }
        if (e instanceof ParquetCodecs.UnsupportedCodecException || e.getCause() instanceof ParquetCodecs.UnsupportedCodecException) {
            return new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "COPY " + table + " FROM " + fileName + ": "
                    + (e instanceof ParquetCodecs.UnsupportedCodecException ? e : e.getCause()).getMessage(), e);
        }
        return new ColumbaException(ErrorCode.BAD_COPY_FILE, "COPY " + table + " FROM " + fileName
                + ": not a readable Parquet file (damaged or cut short?): " + e, e);
    }

    /**
     * Reads row groups in file order on the calling thread ({@link ParquetFileReader} is not
     * thread-safe; it reads a row group's compressed pages) and decodes them — decompression and
     * values alike — on {@code maxDop} workers, each row group into its own batches with its own
     * bound columns (a bound column holds a UTF-8 decoder, which is not thread-safe). Batches are
     * handed on in file order, and an error surfaces when its row group's turn comes, so the
     * first bad row of the file is the one reported, with its row number in the file. With
     * MAXDOP 1 the row groups are decoded on the calling thread.
     */
    private static final class Reader implements ImportReader {
        private final String fileName;
        private final ImportTarget target;
        private final ParquetFileReader reader;
        private final MessageType schema;
        private final List<FileColumn> fileColumns;
        private final ValueKind[] kinds;
        private final ColumnDescriptor[] descriptors;
        private final String createdBy;
        private final ExecutorService workers;
        private final int inFlightLimit;
        private final ArrayDeque<Future<List<ColumnBatch>>> inFlight = new ArrayDeque<>();
        private final ArrayDeque<ColumnBatch> ready = new ArrayDeque<>();
        private long rowsBefore;
        private boolean ended;

        Reader(Path file, String fileName, ImportTarget target, int maxDop) {
            this.fileName = fileName;
            this.target = target;
            if (!java.nio.file.Files.isReadable(file)) {
                throw new ColumbaException(ErrorCode.IO_ERROR, "cannot read " + fileName + ": "
                        + (java.nio.file.Files.exists(file) ? "not readable" : "no such file"));
            }
            try {
                ParquetReadOptions options = ParquetReadOptions.builder(new PlainParquetConfiguration())
                        .withCodecFactory(new ParquetCodecs()).build();
                this.reader = ParquetFileReader.open(new LocalInputFile(file), options);
            } catch (IOException | RuntimeException e) {
                throw damaged(target.table(), fileName, e);
            }
            try {
                this.schema = reader.getFooter().getFileMetaData().getSchema();
                this.createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
                List<ParquetColumn> parquetColumns = new ArrayList<>();
                for (Type field : schema.getFields()) {
                    parquetColumns.add(parquetColumn(field));
                }
                this.fileColumns = parquetColumns.stream().map(ParquetColumn::fileColumn).toList();
                target.bind(fileName, fileColumns);
                this.kinds = parquetColumns.stream().map(ParquetColumn::kind).toArray(ValueKind[]::new);
                this.descriptors = new ColumnDescriptor[fileColumns.size()];
                for (int index = 0; index < descriptors.length; index++) {
                    descriptors[index] = schema.getColumnDescription(new String[] {schema.getFields().get(index).getName()});
                }
            } catch (RuntimeException e) {
                close();
                throw damaged(target.table(), fileName, e);
            }
            if (maxDop > 1) {
                AtomicInteger threads = new AtomicInteger();
                this.workers = Executors.newFixedThreadPool(maxDop, runnable -> {
                    Thread thread = new Thread(runnable, "copy-parquet-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
                this.inFlightLimit = maxDop + 1;
            } else {
                this.workers = null;
                this.inFlightLimit = 0;
            }
        }

        @Override
        public Iterator<ColumnBatch> batches() {
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    if (ready.isEmpty() && !(ended && inFlight.isEmpty())) {
                        fill();
                    }
                    return !ready.isEmpty();
                }

                @Override
                public ColumnBatch next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    return ready.poll();
                }
            };
        }

        /** Adds the next row group's batches to {@link #ready}, or ends. */
        private void fill() {
            try {
                if (workers == null) {
                    PageReadStore pages = nextRowGroup();
                    if (pages != null) {
                        ready.addAll(decode(pages, rowsBefore - pages.getRowCount()));
                    }
                    return;
                }
                while (!ended && inFlight.size() < inFlightLimit) {
                    PageReadStore pages = nextRowGroup();
                    if (pages != null) {
                        long firstRow = rowsBefore - pages.getRowCount();
                        inFlight.add(workers.submit(() -> decode(pages, firstRow)));
                    }
                }
                Future<List<ColumnBatch>> first = inFlight.poll();
                if (first != null) {
                    ready.addAll(first.get());
                }
            } catch (ExecutionException e) {
                throw e.getCause() instanceof Exception cause ? damaged(target.table(), fileName, cause)
                        : new ColumbaException(ErrorCode.INTERNAL, "decoding " + fileName + " failed: " + e.getCause(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ColumbaException(ErrorCode.QUERY_CANCELLED, "COPY " + target.table() + " FROM " + fileName
                        + " was interrupted", e);
            } catch (IOException | RuntimeException e) {
                throw damaged(target.table(), fileName, e);
            }
        }

        /** The next row group's pages, or null (and {@link #ended}) after the last. */
        private PageReadStore nextRowGroup() throws IOException {
            PageReadStore pages = reader.readNextRowGroup();
            if (pages == null) {
                ended = true;
                return null;
            }
            rowsBefore += pages.getRowCount();
            return pages;
        }

        /**
         * A row group's rows as batches of at most {@link #BATCH_ROWS}; its first row is row
         * {@code firstRow + 1} of the file. Decoded a column at a time ({@link ColumnChunkDecoder}),
         * then the rows are ended together; when values are refused, the error reported is the one
         * a row at a time would have met first: the first bad row, at it the first bad column in
         * file order, a NULL in a NOT NULL column only in a row before any refused value.
         */
        private List<ColumnBatch> decode(PageReadStore pages, long firstRow) throws IOException {
            ImportedColumn[] columns = target.bind(fileName, fileColumns);
            ImportRows rows = new ImportRows(target, fileName, columns);
            long rowCount = pages.getRowCount();
            int batchCount = (int) ((rowCount + BATCH_ROWS - 1) / BATCH_ROWS);
            ColumnBatch[] batches = new ColumnBatch[batchCount];
            for (int batch = 0; batch < batchCount; batch++) {
                int size = (int) Math.min(BATCH_ROWS, rowCount - (long) batch * BATCH_ROWS);
                batches[batch] = rows.newBatch(size + 1);
                batches[batch].reserve(size);
            }
            long failedRow = rowCount;
            ColumbaException failure = null;
            ImportedColumn failedColumn = null;
            for (int index = 0; index < columns.length; index++) {
                ColumnChunkDecoder decoder = new ColumnChunkDecoder(descriptors[index], kinds[index], columns[index], createdBy);
                int refused = decoder.decode(pages.getPageReader(descriptors[index]), rowCount, batches, BATCH_ROWS);
                if (refused >= 0 && refused < failedRow) {
                    failedRow = refused;
                    failure = decoder.failure();
                    failedColumn = columns[index];
                }
            }
            for (int batch = 0; batch < batchCount; batch++) {
                long first = (long) batch * BATCH_ROWS;
                int size = (int) Math.min(BATCH_ROWS, rowCount - first);
                int complete = (int) Math.min(size, failedRow - first);
                if (complete <= 0) {
                    break;
                }
                rows.endRows(batches[batch], complete, firstRow + 1 + first);
            }
            if (failure != null) {
                throw rows.atRow(failure, firstRow + 1 + failedRow, failedColumn);
            }
            return List.of(batches);
        }

        @Override
        public void close() {
            if (workers != null) {
                workers.shutdownNow();
            }
            try {
                reader.close();
            } catch (IOException e) {
                throw new ColumbaException(ErrorCode.IO_ERROR, "cannot close " + fileName + ": " + e.getMessage(), e);
            }
        }
    }

    /** One live row of an execution batch, as {@link ParquetWriter} takes records. */
    private static final class RowOfBatch {
        Batch batch;
        int position;
    }

    /** How a column's vector is written. */
    private enum WriteKind { BOOLEAN, INT, BIGINT, DOUBLE, DECIMAL_LONG, DECIMAL_FIXED, STRING, BYTES, DATE, TIMESTAMP }

    static MessageType messageType(TableSchema schema) {
        Types.MessageTypeBuilder message = Types.buildMessage();
        for (int index = 0; index < schema.size(); index++) {
            Column column = schema.column(index);
            Type.Repetition repetition = column.nullable() ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED;
            Type field = switch (column.type()) {
                case SqlType.BooleanType ignored -> Types.primitive(PrimitiveTypeName.BOOLEAN, repetition).named(column.name());
                case SqlType.IntegerType ignored -> Types.primitive(PrimitiveTypeName.INT32, repetition)
                        .as(LogicalTypeAnnotation.intType(32, true)).named(column.name());
                case SqlType.BigintType ignored -> Types.primitive(PrimitiveTypeName.INT64, repetition)
                        .as(LogicalTypeAnnotation.intType(64, true)).named(column.name());
                case SqlType.DoubleType ignored -> Types.primitive(PrimitiveTypeName.DOUBLE, repetition).named(column.name());
                case SqlType.DecimalType decimal when decimal.precision() <= 18 -> Types.primitive(PrimitiveTypeName.INT64, repetition)
                        .as(LogicalTypeAnnotation.decimalType(decimal.scale(), decimal.precision())).named(column.name());
                case SqlType.DecimalType decimal -> Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition).length(16)
                        .as(LogicalTypeAnnotation.decimalType(decimal.scale(), decimal.precision())).named(column.name());
                case SqlType.VarcharType ignored -> Types.primitive(PrimitiveTypeName.BINARY, repetition)
                        .as(LogicalTypeAnnotation.stringType()).named(column.name());
                case SqlType.CharType ignored -> Types.primitive(PrimitiveTypeName.BINARY, repetition)
                        .as(LogicalTypeAnnotation.stringType()).named(column.name());
                case SqlType.DateType ignored -> Types.primitive(PrimitiveTypeName.INT32, repetition)
                        .as(LogicalTypeAnnotation.dateType()).named(column.name());
                case SqlType.TimestampType ignored -> Types.primitive(PrimitiveTypeName.INT64, repetition)
                        .as(LogicalTypeAnnotation.timestampType(false, LogicalTypeAnnotation.TimeUnit.MICROS)).named(column.name());
                case SqlType.VarbinaryType ignored -> Types.primitive(PrimitiveTypeName.BINARY, repetition).named(column.name());
                case SqlType.BinaryType ignored -> Types.primitive(PrimitiveTypeName.BINARY, repetition).named(column.name());
                case SqlType.UuidType ignored -> Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition)
                        .length(SqlType.UuidType.BYTES).as(LogicalTypeAnnotation.uuidType()).named(column.name());
            };
            message.addField(field);
        }
        return message.named("columba");
    }

    private static WriteKind writeKind(SqlType type) {
        return switch (type) {
            case SqlType.BooleanType ignored -> WriteKind.BOOLEAN;
            case SqlType.IntegerType ignored -> WriteKind.INT;
            case SqlType.BigintType ignored -> WriteKind.BIGINT;
            case SqlType.DoubleType ignored -> WriteKind.DOUBLE;
            case SqlType.DecimalType decimal -> decimal.precision() <= 18 ? WriteKind.DECIMAL_LONG : WriteKind.DECIMAL_FIXED;
            case SqlType.VarcharType ignored -> WriteKind.STRING;
            case SqlType.CharType ignored -> WriteKind.STRING;
            case SqlType.DateType ignored -> WriteKind.DATE;
            case SqlType.TimestampType ignored -> WriteKind.TIMESTAMP;
            case SqlType.VarbinaryType ignored -> WriteKind.BYTES;
            case SqlType.BinaryType ignored -> WriteKind.BYTES;
            case SqlType.UuidType ignored -> WriteKind.BYTES;
        };
    }

    /** Writes a {@link RowOfBatch} field by field from the batch's vectors. */
    private static final class RowWriteSupport extends WriteSupport<RowOfBatch> {
        private final MessageType message;
        private final String[] names;
        private final WriteKind[] kinds;
        private RecordConsumer consumer;

        RowWriteSupport(MessageType message, TableSchema schema) {
            this.message = message;
            this.names = new String[schema.size()];
            this.kinds = new WriteKind[schema.size()];
            for (int index = 0; index < schema.size(); index++) {
                names[index] = schema.column(index).name();
                kinds[index] = writeKind(schema.column(index).type());
            }
        }

        @Override
        public WriteContext init(org.apache.hadoop.conf.Configuration configuration) {
            return new WriteContext(message, Map.of());
        }

        @Override
        public WriteContext init(ParquetConfiguration configuration) {
            return new WriteContext(message, Map.of());
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            this.consumer = recordConsumer;
        }

        @Override
        public void write(RowOfBatch row) {
            consumer.startMessage();
            int position = row.position;
            for (int index = 0; index < kinds.length; index++) {
                FieldVector vector = row.batch.column(index);
                if (vector.isNull(position)) {
                    continue;
                }
                consumer.startField(names[index], index);
                switch (kinds[index]) {
                    case BOOLEAN -> consumer.addBoolean(((BitVector) vector).get(position) != 0);
                    case INT -> consumer.addInteger(((IntVector) vector).get(position));
                    case BIGINT -> consumer.addLong(((BigIntVector) vector).get(position));
                    case DOUBLE -> consumer.addDouble(((Float8Vector) vector).get(position));
                    case DECIMAL_LONG -> consumer.addLong(((DecimalVector) vector).getDataBuffer()
                            .getLong((long) position * DecimalVector.TYPE_WIDTH));
                    case DECIMAL_FIXED -> {
                        ArrowBuf data = ((DecimalVector) vector).getDataBuffer();
                        long offset = (long) position * DecimalVector.TYPE_WIDTH;
                        long low = data.getLong(offset);
                        long high = data.getLong(offset + 8);
                        byte[] bigEndian = new byte[16];
                        for (int index2 = 0; index2 < 8; index2++) {
                            bigEndian[index2] = (byte) (high >>> (56 - 8 * index2));
                            bigEndian[8 + index2] = (byte) (low >>> (56 - 8 * index2));
                        }
                        consumer.addBinary(Binary.fromConstantByteArray(bigEndian));
                    }
                    case STRING -> consumer.addBinary(Binary.fromConstantByteArray(((VarCharVector) vector).get(position)));
                    case BYTES -> consumer.addBinary(Binary.fromConstantByteArray(((VarBinaryVector) vector).get(position)));
                    case DATE -> consumer.addInteger(((DateDayVector) vector).get(position));
                    case TIMESTAMP -> consumer.addLong(((TimeStampMicroVector) vector).get(position));
                }
                consumer.endField(names[index], index);
            }
            consumer.endMessage();
        }
    }

    private static final class RowWriterBuilder extends ParquetWriter.Builder<RowOfBatch, RowWriterBuilder> {
        private final RowWriteSupport writeSupport;

        RowWriterBuilder(LocalOutputFile file, RowWriteSupport writeSupport) {
            super(file);
            this.writeSupport = writeSupport;
        }

        @Override
        protected RowWriterBuilder self() {
            return this;
        }

        @Override
        protected WriteSupport<RowOfBatch> getWriteSupport(org.apache.hadoop.conf.Configuration configuration) {
            return writeSupport;
        }

        @Override
        protected WriteSupport<RowOfBatch> getWriteSupport(ParquetConfiguration configuration) {
            return writeSupport;
        }
    }

    private static final class Writer implements ExportWriter {
        private final ExportFile file;
        private final ParquetWriter<RowOfBatch> writer;
        private final RowOfBatch row = new RowOfBatch();
        private boolean closed;
        private boolean committed;

        Writer(Path target, String fileName, TableSchema schema) {
            this.file = new ExportFile(target, fileName);
            try {
                this.writer = new RowWriterBuilder(new LocalOutputFile(file.temporary()),
                        new RowWriteSupport(messageType(schema), schema))
                        .withConf(new PlainParquetConfiguration())
                        .withCodecFactory(new ParquetCodecs())
                        .withCompressionCodec(CompressionCodecName.SNAPPY)
                        .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
                        .withRowGroupSize(ROW_GROUP_BYTES)
                        .build();
            } catch (IOException | RuntimeException e) {
                file.discard();
                throw file.failure(e);
            }
        }

        @Override
        public void write(Batch batch) {
            row.batch = batch;
            try {
                for (int live = 0; live < batch.selectedCount(); live++) {
                    row.position = batch.selectedRow(live);
                    writer.write(row);
                }
            } catch (IOException e) {
                throw file.failure(e);
            } finally {
                row.batch = null;
            }
        }

        @Override
        public void commit() {
            try {
                closed = true;
                writer.close();
            } catch (IOException | RuntimeException e) {
                throw file.failure(e);
            }
            file.publish();
            committed = true;
        }

        @Override
        public void close() {
            try {
                if (!closed) {
                    closed = true;
                    writer.close();
                }
            } catch (IOException | RuntimeException e) {
                // the file is discarded below; the statement's own failure is what is reported
            } finally {
                if (!committed) {
                    file.discard();
                }
            }
        }
    }
}

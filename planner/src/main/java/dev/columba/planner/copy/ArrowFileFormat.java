package dev.columba.planner.copy;

import dev.columba.columnstore.build.ColumnBatch;
import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * COPY's Arrow IPC format, through Arrow Java's own {@link ArrowFileReader} and
 * {@link ArrowFileWriter}.
 *
 * <p>Export writes the IPC <em>file</em> format (magic {@code ARROW1}, a footer indexing the
 * record batches), one record batch per execution batch, each column the vector execution holds
 * it in (see {@link VectorValues}): BOOLEAN Bool, INT Int(32), BIGINT Int(64), DOUBLE
 * FloatingPoint(DOUBLE), DECIMAL(p,s) Decimal(p,s,128), VARCHAR and CHAR Utf8, DATE Date(DAY),
 * TIMESTAMP Timestamp(MICROSECOND) without a time zone; every field nullable.
 *
 * <p>Import reads the file format, or the stream format when the file does not start with the
 * file magic. Field types read as: Bool BOOLEAN; Int of 8, 16, 32 bits INT, of 64 BIGINT
 * (unsigned: 8 and 16 INT, 32 BIGINT, 64 DECIMAL(20,0)); FloatingPoint SINGLE and DOUBLE DOUBLE;
 * Decimal(p,s) of 128 or 256 bits DECIMAL(p,s) up to p 38; Utf8 and LargeUtf8 VARCHAR; Date
 * DATE; Timestamp of any unit TIMESTAMP (nanoseconds cut to microseconds; a zoned timestamp as its
 * UTC time). Anything else (binary, time of day, intervals, nested and dictionary-encoded fields)
 * is refused naming the column (0A000). Arrow IPC has no checksums: a file cut short or whose
 * structure does not parse is BAD_COPY_FILE (22P04), a flipped bit inside a value is not seen.
 */
public final class ArrowFileFormat implements CopyFileFormat {
    /** Rows gathered into one {@link ColumnBatch} from consecutive record batches, at least. */
    static final int BATCH_ROWS = 1 << 16;
    private static final byte[] FILE_MAGIC = "ARROW1".getBytes(StandardCharsets.US_ASCII);

    @Override
    public CopyOptions.FileFormat format() {
        return CopyOptions.FileFormat.ARROW;
    }

    @Override
    public ImportReader open(Path file, String fileName, ImportTarget target, int maxDop, BufferAllocator allocator) {
        return new Reader(file, fileName, target, allocator);
    }

    @Override
    public ExportWriter create(Path file, String fileName, TableSchema schema, BufferAllocator allocator) {
        return new Writer(file, fileName, schema, allocator);
    }

    /** The Columba type an Arrow field's values read as, or a column whose type none holds. */
    static FileColumn fileColumn(Field field) {
        ArrowType type = field.getType();
        SqlType sqlType = field.getDictionary() != null ? null : switch (type) {
            case ArrowType.Bool ignored -> SqlType.BOOLEAN;
            case ArrowType.Int integer when integer.getBitWidth() < 32 || integer.getBitWidth() == 32 && integer.getIsSigned() ->
                    SqlType.INT;
            case ArrowType.Int integer when integer.getBitWidth() == 32 || integer.getIsSigned() -> SqlType.BIGINT;
            case ArrowType.Int ignored -> SqlType.decimal(20, 0);
            case ArrowType.FloatingPoint floating when floating.getPrecision() != org.apache.arrow.vector.types.FloatingPointPrecision.HALF ->
                    SqlType.DOUBLE;
            case ArrowType.Decimal decimal when decimal.getPrecision() <= SqlType.DecimalType.MAX_PRECISION
                    && decimal.getScale() >= 0 && decimal.getScale() <= decimal.getPrecision() ->
                    SqlType.decimal(decimal.getPrecision(), decimal.getScale());
            case ArrowType.Utf8 ignored -> SqlType.varchar(SqlType.VarcharType.MAX_LENGTH);
            case ArrowType.LargeUtf8 ignored -> SqlType.varchar(SqlType.VarcharType.MAX_LENGTH);
            case ArrowType.Date ignored -> SqlType.DATE;
            case ArrowType.Timestamp ignored -> SqlType.TIMESTAMP;
            default -> null;
        };
        return new FileColumn(field.getName(), sqlType, (field.getDictionary() != null ? "dictionary-encoded " : "")
                + "Arrow " + type);
    }

    /** Writes one column of a record batch's row into the batch's row being written. */
    private interface ValueCopier {
        void copy(int row, ColumnBatch batch);
    }

    private static final class Reader implements ImportReader {
        private final String fileName;
        private final ImportTarget target;
        private final BufferAllocator allocator;
        private final FileChannel channel;
        private final ArrowReader reader;
        private final ImportedColumn[] columns;
        private final ImportRows rows;
        private byte[] scratch = new byte[256];
        private long rowsRead;
        private boolean ended;
        private ColumnBatch next;

        Reader(Path file, String fileName, ImportTarget target, BufferAllocator parent) {
            this.fileName = fileName;
            this.target = target;
            this.allocator = parent.newChildAllocator("COPY FROM " + fileName, 0, Long.MAX_VALUE);
            try {
                this.channel = FileChannel.open(file, StandardOpenOption.READ);
            } catch (IOException e) {
                allocator.close();
                throw new ColumbaException(ErrorCode.IO_ERROR, "cannot read " + fileName + ": " + e.getMessage(), e);
            }
            try {
                ByteBuffer magic = ByteBuffer.allocate(FILE_MAGIC.length);
                while (magic.hasRemaining() && channel.read(magic, magic.position()) > 0) {
                    // reads the first bytes
                }
                boolean fileFormat = java.util.Arrays.equals(magic.array(), FILE_MAGIC);
                channel.position(0);
                this.reader = fileFormat ? new ArrowFileReader(channel, allocator) : new ArrowStreamReader(channel, allocator);
                List<FileColumn> fileColumns = new ArrayList<>();
                for (Field field : reader.getVectorSchemaRoot().getSchema().getFields()) {
                    fileColumns.add(fileColumn(field));
                }
                this.columns = target.bind(fileName, fileColumns);
                this.rows = new ImportRows(target, fileName, columns);
            } catch (IOException | RuntimeException e) {
                close();
                if (e instanceof ColumbaException columba) {
                    throw columba;
                }
                throw damaged(e);
            }
        }

        private ColumbaException damaged(Exception e) {
            return new ColumbaException(ErrorCode.BAD_COPY_FILE, "COPY " + target.table() + " FROM " + fileName
                    + ": not a readable Arrow IPC file (damaged or cut short?): " + e, e);
        }

        @Override
        public Iterator<ColumnBatch> batches() {
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    if (next == null && !ended) {
                        next = readBatch();
                    }
                    return next != null;
                }

                @Override
                public ColumnBatch next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    ColumnBatch batch = next;
                    next = null;
                    return batch;
                }
            };
        }

        /** Record batches until at least {@link #BATCH_ROWS} rows, or null at the end. */
        private ColumnBatch readBatch() {
            ColumnBatch batch = rows.newBatch(BATCH_ROWS);
            while (batch.rows() < BATCH_ROWS) {
                boolean loaded;
                try {
                    loaded = reader.loadNextBatch();
                } catch (IOException | RuntimeException e) {
                    throw damaged(e);
                }
                if (!loaded) {
                    ended = true;
                    break;
                }
                VectorSchemaRoot root;
                try {
                    root = reader.getVectorSchemaRoot();
                } catch (IOException e) {
                    throw damaged(e);
                }
                append(root, batch);
            }
            return batch.rows() == 0 ? null : batch;
        }

        private void append(VectorSchemaRoot root, ColumnBatch batch) {
            ValueCopier[] copiers = new ValueCopier[columns.length];
            List<FieldVector> vectors = root.getFieldVectors();
            for (int index = 0; index < columns.length; index++) {
                copiers[index] = copier(vectors.get(index), columns[index]);
            }
            int rowCount = root.getRowCount();
            for (int row = 0; row < rowCount; row++) {
                long fileRow = ++rowsRead;
                for (int index = 0; index < copiers.length; index++) {
                    try {
                        copiers[index].copy(row, batch);
                    } catch (ColumbaException e) {
                        throw rows.atRow(e, fileRow, columns[index]);
                    } catch (RuntimeException e) {
                        throw damaged(e);
                    }
                }
                rows.endRow(batch, fileRow);
            }
        }

        private ValueCopier copier(FieldVector vector, ImportedColumn column) {
            ValueCopier values = switch (vector) {
                case BitVector bits -> (row, batch) -> column.setLong(batch, bits.get(row));
                case TinyIntVector tiny -> (row, batch) -> column.setLong(batch, tiny.get(row));
                case SmallIntVector small -> (row, batch) -> column.setLong(batch, small.get(row));
                case IntVector integers -> (row, batch) -> column.setLong(batch, integers.get(row));
                case BigIntVector longs -> (row, batch) -> column.setLong(batch, longs.get(row));
                case UInt1Vector unsigned -> (row, batch) -> column.setLong(batch, Byte.toUnsignedLong(unsigned.get(row)));
                case UInt2Vector unsigned -> (row, batch) -> column.setLong(batch, unsigned.get(row));
                case UInt4Vector unsigned -> (row, batch) -> column.setLong(batch, Integer.toUnsignedLong(unsigned.get(row)));
                case UInt8Vector unsigned -> (row, batch) -> column.setObject(batch,
                        new BigDecimal(unsigned.getObjectNoOverflow(row)));
                case Float4Vector floats -> (row, batch) -> column.setDouble(batch, floats.get(row));
                case Float8Vector doubles -> (row, batch) -> column.setDouble(batch, doubles.get(row));
                case DecimalVector decimals -> (row, batch) -> {
                    long offset = (long) row * DecimalVector.TYPE_WIDTH;
                    long low = decimals.getDataBuffer().getLong(offset);
                    long high = decimals.getDataBuffer().getLong(offset + 8);
                    if (high == low >> 63) {
                        column.setLong(batch, low);
                    } else {
                        column.setObject(batch, decimals.getObject(row));
                    }
                };
                case Decimal256Vector decimals -> (row, batch) -> column.setObject(batch, decimals.getObject(row));
                case VarCharVector strings -> (row, batch) -> {
                    int start = strings.getOffsetBuffer().getInt((long) row * 4);
                    int end = strings.getOffsetBuffer().getInt((long) (row + 1) * 4);
                    copyString(strings.getDataBuffer(), start, end - start, column, batch);
                };
                case LargeVarCharVector strings -> (row, batch) -> {
                    long start = strings.getOffsetBuffer().getLong((long) row * 8);
                    long end = strings.getOffsetBuffer().getLong((long) (row + 1) * 8);
                    copyString(strings.getDataBuffer(), start, Math.toIntExact(end - start), column, batch);
                };
                case DateDayVector days -> (row, batch) -> column.setLong(batch, days.get(row));
                case DateMilliVector millis -> (row, batch) -> column.setLong(batch, Math.floorDiv(millis.get(row), 86_400_000L));
                case TimeStampVector timestamps -> {
                    TimeUnit unit = ((ArrowType.Timestamp) timestamps.getField().getType()).getUnit();
                    yield (row, batch) -> column.setLong(batch, micros(timestamps.get(row), unit));
                }
                default -> throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "COPY " + target.table() + " FROM "
                        + fileName + ": column " + column.fileColumn().name() + " is held in a "
                        + vector.getClass().getSimpleName() + ", which COPY does not read");
            };
            return (row, batch) -> {
                if (vector.isNull(row)) {
                    column.setNull(batch);
                } else {
                    values.copy(row, batch);
                }
            };
        }

        private void copyString(org.apache.arrow.memory.ArrowBuf data, long start, int length, ImportedColumn column,
                                ColumnBatch batch) {
            if (length > scratch.length) {
                scratch = new byte[Math.max(length, scratch.length * 2)];
            }
            data.getBytes(start, scratch, 0, length);
            column.setUtf8(batch, scratch, 0, length);
        }

        private static long micros(long value, TimeUnit unit) {
            return switch (unit) {
                case SECOND -> Math.multiplyExact(value, 1_000_000L);
                case MILLISECOND -> Math.multiplyExact(value, 1_000L);
                case MICROSECOND -> value;
                case NANOSECOND -> Math.floorDiv(value, 1_000L);
            };
        }

        @Override
        public void close() {
            try {
                if (reader != null) {
                    reader.close();
                } else if (channel != null) {
                    channel.close();
                }
            } catch (IOException e) {
                throw new ColumbaException(ErrorCode.IO_ERROR, "cannot close " + fileName + ": " + e.getMessage(), e);
            } finally {
                allocator.close();
            }
        }
    }

    private static final class Writer implements ExportWriter {
        private final ExportFile file;
        private final TableSchema schema;
        private final BufferAllocator allocator;
        private final VectorSchemaRoot root;
        private final FileChannel channel;
        private final ArrowFileWriter writer;
        private boolean committed;
        private boolean closed;

        Writer(Path target, String fileName, TableSchema schema, BufferAllocator parent) {
            this.file = new ExportFile(target, fileName);
            this.schema = schema;
            this.allocator = parent.newChildAllocator("COPY TO " + fileName, 0, Long.MAX_VALUE);
            List<FieldVector> vectors = new ArrayList<>();
            for (int column = 0; column < schema.size(); column++) {
                vectors.add(VectorValues.newVector(schema.column(column).name(), schema.column(column).type(), allocator));
            }
            this.root = new VectorSchemaRoot(vectors);
            try {
                this.channel = FileChannel.open(file.temporary(), StandardOpenOption.CREATE,
                        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
                this.writer = new ArrowFileWriter(root, null, channel);
                writer.start();
            } catch (IOException | RuntimeException e) {
                root.close();
                allocator.close();
                file.discard();
                throw file.failure(e instanceof Exception exception ? exception : new IOException(e));
            }
        }

        @Override
        public void write(Batch batch) {
            int count = batch.selectedCount();
            if (count == 0) {
                return;
            }
            for (int column = 0; column < schema.size(); column++) {
                FieldVector to = root.getVector(column);
                FieldVector from = batch.column(column);
                to.reset();
                if (to.getClass() == from.getClass()) {
                    for (int row = 0; row < count; row++) {
                        to.copyFromSafe(batch.selectedRow(row), row, from);
                    }
                } else {
                    SqlType type = schema.column(column).type();
                    for (int row = 0; row < count; row++) {
                        int position = batch.selectedRow(row);
                        VectorValues.set(to, row, type, VectorValues.get(from, position, type));
                    }
                }
                to.setValueCount(count);
            }
            root.setRowCount(count);
            try {
                writer.writeBatch();
            } catch (IOException e) {
                throw file.failure(e);
            }
        }

        @Override
        public void commit() {
            try {
                writer.end();
                writer.close();
                closed = true;
            } catch (IOException e) {
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
            } finally {
                root.close();
                allocator.close();
                if (!committed) {
                    file.discard();
                }
            }
        }
    }
}

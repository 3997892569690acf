package dev.columba.columnstore.table;

import dev.columba.columnstore.build.PrimaryDictionaries;
import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.encoding.SegmentMetadata;
import dev.columba.columnstore.encoding.SegmentReader;
import dev.columba.columnstore.file.FooterMetadata;
import dev.columba.columnstore.file.RowgroupFile;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.storage.io.NativeFilesFacade;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * The live rows of one compressed rowgroup as Java values, in position order: what reorganize and
 * rebuild feed back into the rowgroup builder. Decodes a chunk of rows at a time.
 */
final class CompressedRows {
    private static final int CHUNK = 4096;

    private CompressedRows() {
    }

    static void forEach(ColumnstoreTable table, RowgroupEntry entry, BitSet deleted, Consumer<Object[]> consumer) {
        TableSchema schema = table.schema();
        PrimaryDictionaries primaries = table.primaryDictionaries();
        try (RowgroupFile file = RowgroupFile.open(NativeFilesFacade.INSTANCE, table.rowgroupFile(entry.rowgroupId()));
             BufferAllocator allocator = new RootAllocator(1L << 30)) {
            String origin = file.path().toString();
            SegmentReader[] readers = new SegmentReader[schema.size()];
            List<FieldVector> vectors = new ArrayList<>();
            try {
                for (int column = 0; column < schema.size(); column++) {
                    SqlType type = schema.column(column).type();
                    file.verifySegment(column);
                    SegmentMetadata metadata = FooterMetadata.decode(file.metadata(column), type, origin);
                    Dictionary primary = metadata.primaryDictionaryId() == SegmentMetadata.NO_DICTIONARY ? null
                            : primaries.get(column);
                    Dictionary secondary = null;
                    if (metadata.secondaryDictionaryId() != SegmentMetadata.NO_DICTIONARY) {
                        int blob = file.columnCount() + column;
                        file.verifySegment(blob);
                        secondary = Dictionary.read(file.segment(blob), type, origin);
                    }
                    readers[column] = SegmentReader.open(file.segment(column), type, primary, secondary, origin);
                    Column definition = schema.column(column);
                    FieldVector vector = new Field(definition.name(), new FieldType(true, type.arrowType(), null), null)
                            .createVector(allocator);
                    vector.setInitialCapacity(CHUNK);
                    vector.allocateNew();
                    vectors.add(vector);
                }
                int rows = file.rows();
                for (int from = 0; from < rows; from += CHUNK) {
                    int count = Math.min(CHUNK, rows - from);
                    for (int column = 0; column < schema.size(); column++) {
                        vectors.get(column).reset();
                        readers[column].decode(from, count, vectors.get(column), 0);
                    }
                    for (int row = 0; row < count; row++) {
                        if (deleted != null && deleted.get(from + row)) {
                            continue;
                        }
                        Object[] values = new Object[schema.size()];
                        for (int column = 0; column < values.length; column++) {
                            values[column] = VectorValues.get(vectors.get(column), row, schema.column(column).type());
                        }
                        consumer.accept(values);
                    }
                }
            } finally {
                for (FieldVector vector : vectors) {
                    vector.close();
                }
            }
        }
    }
}

package dev.columba.planner.copy;

import dev.columba.core.schema.TableSchema;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A self-describing file format COPY reads into tables and writes rows to: Arrow IPC
 * ({@link ArrowFileFormat}, built in) and Parquet (module {@code columba-formats}, found through
 * {@link java.util.ServiceLoader} when on the class path; see {@link CopyFileFormats}). The file
 * names and types its columns, so an import maps them to the table's by name
 * ({@link ImportTarget#bind}) and converts values by store assignment ({@link ImportedColumn});
 * an export writes the statement's batches as they come ({@link ExportWriter}).
 */
public interface CopyFileFormat {
    /** The format this implements. */
    CopyOptions.FileFormat format();

    /**
     * Opens {@code file} to be read into {@code target}: reads its schema and binds its columns.
     *
     * @param maxDop threads the reader may decode with
     * @param allocator where the reader's off-heap buffers come from (a child of it, closed with the reader)
     * @throws dev.columba.core.error.ColumbaException IO_ERROR if the file cannot be read,
     *         BAD_COPY_FILE if it is not a file of this format, UNDEFINED_COLUMN or WRONG_TYPE or
     *         FEATURE_NOT_SUPPORTED if its columns do not fit the target
     */
    ImportReader open(Path file, String fileName, ImportTarget target, int maxDop, BufferAllocator allocator);

    /**
     * Starts writing rows of {@code schema} to {@code file}: to a temporary file beside it, put in
     * its place by {@link ExportWriter#commit}.
     *
     * @param allocator where the writer's off-heap buffers come from (a child of it, closed with the writer)
     *
     * @throws dev.columba.core.error.ColumbaException IO_ERROR if the file cannot be written,
     *         FEATURE_NOT_SUPPORTED for a column type the format cannot hold
     */
    ExportWriter create(Path file, String fileName, TableSchema schema, BufferAllocator allocator);
}

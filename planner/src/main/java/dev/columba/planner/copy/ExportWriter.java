package dev.columba.planner.copy;

import dev.columba.core.batch.Batch;

/**
 * Writes a statement's rows to a file of one format. Rows go to a temporary file beside the
 * target, synced and renamed over it by {@link #commit}; closing without a commit removes the
 * temporary file, so a failed export leaves no half file and the target as it was.
 */
public interface ExportWriter extends AutoCloseable {
    /** Writes the batch's live rows (its selection, if it has one), columns in the schema's order. */
    void write(Batch batch);

    /** Finishes the file, syncs it and puts it in the target's place. */
    void commit();

    /** Without {@link #commit}: removes the temporary file; after it: nothing. */
    @Override
    void close();
}

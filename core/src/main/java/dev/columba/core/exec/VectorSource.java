package dev.columba.core.exec;

import org.apache.arrow.vector.FieldVector;

/**
 * Rows written straight into vectors a batch at a time, the shape of a rowstore scan that decodes
 * its pages into a batch (no per-row objects), for {@link VectorSourceOperator}.
 */
public interface VectorSource extends AutoCloseable {

    /**
     * Writes the next rows, at most {@code capacity}, into positions {@code 0 .. n-1} of
     * {@code vectors} (one per column, made by {@code VectorValues.newVector} for the column's type)
     * and returns {@code n}. Fewer than {@code capacity} means there are no more rows: the source
     * is not asked again.
     */
    int fill(FieldVector[] vectors, int capacity);

    @Override
    void close();
}

package dev.columba.planner.copy;

import dev.columba.columnstore.build.ColumnBatch;
import dev.columba.core.error.ColumbaException;

/**
 * What {@link CsvBlockParser#parse} made of a run of bytes: the rows of its whole records in file
 * order, column by column in {@code batch}, each row's first line (line breaks since the run's
 * start), where the parsed records end and the line breaks before that. {@code failure}, if not
 * null, is the first bad record, at {@code failureLine} line breaks after the run's start; its
 * message begins where "file line N" ends. A run that ends inside a record has
 * {@code consumedEnd} at that record's start.
 */
record ParsedBlock(ColumnBatch batch, int[] rowLines, int consumedEnd, int lineBreaks, int failureLine,
                   ColumbaException failure) {
}

package dev.columba.trino;

import io.trino.spi.SplitWeight;
import io.trino.spi.connector.ConnectorSplit;

/**
 * A range of page ids of a rowstore table (heap pages or B+tree leaves): the unit of work a worker
 * reads, in allocation order. The split manager cuts the table's allocated pages into ranges of about
 * the catalog's pages per split; the first range starts at page 0 and the last ends at
 * {@code Long.MAX_VALUE}, so the ranges cover every page id and each page belongs to one split, even
 * one allocated after the splits were made. Weighted by its pages against a full split.
 * Public, as every handle: Trino serializes handles to JSON (Jackson) between its nodes.
 *
 * @param objectId  the table's object id
 * @param firstPage the first page id of the range
 * @param endPage   the page id after the range
 * @param pages     the table's allocated pages in the range when the split was made
 * @param fullPages the pages of a full split (the catalog's {@code columba.rowstore.pages-per-split}): weight 1
 */
public record RowstoreSplit(int objectId, long firstPage, long endPage, int pages, int fullPages) implements ConnectorSplit {
    private static final long INSTANCE_SIZE = 56;

    public RowstoreSplit {
        if (firstPage < 0 || endPage <= firstPage || pages < 0 || fullPages < 1) {
            throw new IllegalArgumentException("split of pages [" + firstPage + ", " + endPage + ") holding " + pages
                    + " of " + fullPages);
        }
    }

    @Override
    public SplitWeight getSplitWeight() {
        return SplitWeight.fromProportion(Math.clamp((double) pages / fullPages, 0.01, 1.0));
    }

    @Override
    public long getRetainedSizeInBytes() {
        return INSTANCE_SIZE;
    }
}

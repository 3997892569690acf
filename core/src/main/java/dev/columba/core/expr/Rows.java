package dev.columba.core.expr;

import dev.columba.core.batch.Batch;

/**
 * The vector positions a kernel computes, ascending: a batch's live rows, or the subset of them a
 * CASE branch or a later AND operand is evaluated for. Reused from batch to batch; the array
 * grows, never shrinks.
 */
final class Rows {
    int[] positions;
    int count;

    Rows(int capacity) {
        this.positions = new int[Math.max(capacity, 16)];
    }

    void clear(int capacity) {
        if (positions.length < capacity) {
            positions = new int[Math.max(capacity, positions.length * 2)];
        }
        count = 0;
    }

    void add(int position) {
        positions[count++] = position;
    }

    /** Becomes the live rows of {@code batch}. */
    void selectLive(Batch batch) {
        int live = batch.selectedCount();
        clear(live);
        batch.copySelectedRows(positions);
        count = live;
    }
}

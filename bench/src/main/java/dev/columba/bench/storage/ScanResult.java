package dev.columba.bench.storage;

import java.time.LocalDateTime;

/**
 * What a scan of the {@link ScanTable} computes: seed 004's {@code SELECT max(dt)}, plus a row
 * count and a sum of {@code j} so that a scan that skipped or repeated pages cannot match the
 * expected value by accident.
 *
 * @param rows    rows visited
 * @param sumOfJ  sum of column {@code j}
 * @param maxDt   largest {@code dt}, or null for no rows
 */
public record ScanResult(long rows, long sumOfJ, LocalDateTime maxDt) {
}

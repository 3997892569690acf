package dev.columba.storage.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.columba.storage.io.NativeFilesFacade;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random groups, segment sizes, reopens, torn tails and segment removals against a model of what
 * the log must hold. Prints its seed; replay one with {@code -Dcolumba.test.seed=<seed>}.
 */
class RandomizedLogTest {
    private static final int STEPS = 300;

    @TempDir
    Path temporary;

    private long seed;
    private SplittableRandom random;
    private Path directory;
    private long segmentSize;
    /** Every entry the log must return, oldest first. */
    private final List<LogEntry> model = new ArrayList<>();

    @Test
    void theLogAlwaysHoldsWhatTheModelSays() {
        seed = Long.getLong("columba.test.seed", new SplittableRandom().nextLong());
        System.out.println("RandomizedLogTest seed " + seed + " (replay with -Dcolumba.test.seed=" + seed + ")");
        random = new SplittableRandom(seed);
        directory = temporary.resolve("wal");
        segmentSize = 4096 + random.nextInt(60_000);
        WriteAheadLog log = open();
        try {
            for (int step = 0; step < STEPS; step++) {
                int action = random.nextInt(100);
                if (action < 75) {
                    append(log);
                } else if (action < 85) {
                    log.close();
                    log = open();
                    assertEquals(new LogEnd.Clean(log.endLsn()), log.tailAtOpen(), where(step));
                    check(log, step);
                } else if (action < 92) {
                    log = tear(log, step);
                } else if (action < 96) {
                    removeSegments(log);
                    check(log, step);
                } else {
                    readFromTheMiddle(log, step);
                }
            }
            log.close();
            log = open();
            check(log, STEPS);
        } finally {
            log.close();
        }
    }

    private WriteAheadLog open() {
        return WriteAheadLog.open(NativeFilesFacade.INSTANCE, directory, segmentSize);
    }

    private String where(int step) {
        return "seed " + seed + ", step " + step;
    }

    private void append(WriteAheadLog log) {
        List<LogRecord> group = new ArrayList<>();
        int records = 1 + random.nextInt(5);
        for (int index = 0; index < records; index++) {
            int kind = random.nextInt(10);
            long pageId = random.nextLong(1_000);
            if (kind < 3) {
                group.add(LogFixtures.image(pageId, random.nextLong()));
            } else if (kind < 8) {
                group.add(randomDelta(pageId));
            } else {
                group.add(new LogRecord.Checkpoint(random.nextLong(Long.MAX_VALUE)));
            }
        }
        if (random.nextInt(5) > 0) {
            group.add(new LogRecord.Commit(random.nextLong(Long.MAX_VALUE), random.nextLong(Long.MAX_VALUE)));
        }
        long[] lsns = new long[group.size()];
        long end = log.append(group, lsns);
        for (int index = 0; index < group.size(); index++) {
            boolean last = index == group.size() - 1;
            model.add(new LogEntry(lsns[index], last ? end : lsns[index + 1], group.get(index), last));
        }
        if (random.nextInt(3) == 0) {
            log.flush(end);
        }
    }

    private LogRecord.PageDelta randomDelta(long pageId) {
        List<LogRecord.PageDelta.Range> ranges = new ArrayList<>();
        int cursor = random.nextInt(100);
        int count = 1 + random.nextInt(4);
        for (int index = 0; index < count; index++) {
            int offset = cursor + random.nextInt(200);
            int length = 1 + random.nextInt(64);
            if (offset + length > 8192) {
                break;
            }
            byte[] bytes = new byte[length];
            random.nextBytes(bytes);
            ranges.add(new LogRecord.PageDelta.Range(offset, bytes));
            cursor = offset + length;
        }
        return new LogRecord.PageDelta(pageId, ranges);
    }

    /** Cuts the last segment somewhere inside its last group, as a crash during that append would. */
    private WriteAheadLog tear(WriteAheadLog log, int step) {
        if (model.isEmpty()) {
            return log;
        }
        long lastStart = log.segmentStartLsns().getLast();
        int groupStartIndex = model.size() - 1;
        while (groupStartIndex > 0 && !model.get(groupStartIndex - 1).groupEnd()) {
            groupStartIndex--;
        }
        if (model.get(groupStartIndex).lsn() < lastStart) {
            return log;
        }
        long groupStart = model.get(groupStartIndex).lsn();
        long groupEnd = model.getLast().nextLsn();
        log.close();
        long cut = groupStart + random.nextLong(groupEnd - groupStart);
        LogFixtures.truncate(LogFixtures.segment(directory, lastStart), cut - lastStart);
        WriteAheadLog reopened = open();
        if (cut == groupStart) {
            assertEquals(new LogEnd.Clean(groupStart), reopened.tailAtOpen(), where(step));
        } else {
            LogEnd.Torn torn = assertInstanceOf(LogEnd.Torn.class, reopened.tailAtOpen(), where(step));
            assertEquals(groupStart, torn.lsn(), where(step));
            assertEquals(cut - groupStart, torn.discardedBytes(), where(step));
        }
        model.subList(groupStartIndex, model.size()).clear();
        assertEquals(groupStart, reopened.endLsn(), where(step));
        check(reopened, step);
        return reopened;
    }

    private void removeSegments(WriteAheadLog log) {
        long before = model.isEmpty() ? log.endLsn() : model.get(random.nextInt(model.size())).lsn();
        log.removeSegmentsBefore(before);
        long oldest = log.segmentStartLsns().getFirst();
        model.removeIf(entry -> entry.lsn() < oldest);
    }

    private void readFromTheMiddle(WriteAheadLog log, int step) {
        if (model.isEmpty()) {
            return;
        }
        int from = random.nextInt(model.size());
        assertEquals(model.subList(from, model.size()), LogFixtures.readAll(log, model.get(from).lsn()), where(step));
    }

    private void check(WriteAheadLog log, int step) {
        assertEquals(model, LogFixtures.readAll(log, log.segmentStartLsns().getFirst()), where(step));
    }
}

package dev.columba.storage.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The buffer pool's primitive-keyed page table: every operation answers as a map would, through
 * growth and the backward shifts of removals (random operations against a {@link HashMap}, on
 * dense page ids as the pool has them and on scattered ones that collide more), and readers that
 * run while writers churn other pages always find the pages that stay mapped.
 */
class PageTableTest {
    private static Frame[] frames(int count) {
        Frame[] frames = new Frame[count];
        for (int index = 0; index < count; index++) {
            frames[index] = new Frame(index, MemorySegment.NULL);
        }
        return frames;
    }

    @Test
    void answersAsAMapThroughGrowthAndRemovals() {
        long seed = Long.getLong("columba.seed", System.nanoTime());
        System.out.println("PageTableTest seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        Frame[] frames = frames(64);
        for (long spread : new long[] {1, 4_096, 1L << 40}) {
            PageTable table = new PageTable(16);
            Map<Long, Frame> model = new HashMap<>();
            for (int step = 0; step < 200_000; step++) {
                long pageId = random.nextLong(3_000) * spread;
                Frame frame = frames[random.nextInt(frames.length)];
                String at = "seed " + seed + ", spread " + spread + ", step " + step + ", page " + pageId;
                switch (random.nextInt(5)) {
                    case 0 -> assertSame(model.putIfAbsent(pageId, frame), table.putIfAbsent(pageId, frame), at);
                    case 1 -> assertSame(model.put(pageId, frame), table.put(pageId, frame), at);
                    case 2 -> {
                        Frame mapped = model.get(pageId);
                        Frame asked = mapped != null && random.nextBoolean() ? mapped : frame;
                        assertEquals(model.remove(pageId, asked), table.remove(pageId, asked), at);
                    }
                    default -> assertSame(model.get(pageId), table.get(pageId), at);
                }
                if (step % 10_000 == 0) {
                    assertEquals(model.size(), table.size(), at);
                    for (Map.Entry<Long, Frame> entry : model.entrySet()) {
                        assertSame(entry.getValue(), table.get(entry.getKey()), at + ": entry " + entry.getKey());
                    }
                }
            }
            assertEquals(model.size(), table.size(), "seed " + seed + ", spread " + spread);
        }
    }

    @Test
    void emptyTableAndTheEmptyMark() {
        PageTable table = new PageTable(1024);
        Frame frame = frames(1)[0];
        assertNull(table.get(0));
        assertFalse(table.containsKey(7));
        assertFalse(table.remove(7, frame));
        assertNull(table.putIfAbsent(0, frame));
        assertTrue(table.containsKey(0));
        assertEquals(1, table.size());
        assertThrows(IllegalArgumentException.class, () -> table.put(-1, frame));
    }

    @Test
    void readersFindStablePagesWhileOthersComeAndGo() throws InterruptedException {
        long seed = Long.getLong("columba.seed", System.nanoTime());
        System.out.println("PageTableTest concurrent seed " + seed);
        PageTable table = new PageTable(256);
        Frame[] frames = frames(2_000);
        // Even pages stay mapped; odd pages are put and removed by the writers all the time, so
        // the stable pages' slots are shifted back and forth and the segments grow meanwhile.
        for (int page = 0; page < 1_000; page += 2) {
            table.put(page, frames[page]);
        }
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int writer = 0; writer < 2; writer++) {
            int first = 1 + writer * 2;
            SplittableRandom random = new SplittableRandom(seed + writer);
            threads.add(Thread.ofPlatform().start(() -> {
                while (!stop.get()) {
                    int page = first + 4 * random.nextInt(250);
                    if (table.putIfAbsent(page, frames[page]) != null) {
                        table.remove(page, frames[page]);
                    }
                }
            }));
        }
        for (int reader = 0; reader < 2; reader++) {
            SplittableRandom random = new SplittableRandom(seed + 10 + reader);
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    for (int lookup = 0; lookup < 2_000_000 && failure.get() == null; lookup++) {
                        int page = 2 * random.nextInt(500);
                        Frame found = table.get(page);
                        if (found != frames[page]) {
                            throw new AssertionError("page " + page + " found as " + found);
                        }
                        int odd = 1 + 2 * random.nextInt(500);
                        Frame other = table.get(odd);
                        if (other != null && other != frames[odd]) {
                            throw new AssertionError("page " + odd + " found as frame " + other.index);
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        for (Thread thread : threads.subList(2, 4)) {
            thread.join();
        }
        stop.set(true);
        for (Thread thread : threads.subList(0, 2)) {
            thread.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("seed " + seed, failure.get());
        }
        for (int page = 0; page < 1_000; page += 2) {
            assertSame(frames[page], table.get(page), "seed " + seed + ", page " + page);
        }
    }
}

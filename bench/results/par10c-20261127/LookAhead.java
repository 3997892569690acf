package dev.columba.core.exec;

import dev.columba.core.memory.Memory;
import dev.columba.core.type.SqlType;
import java.util.*;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.*;

/** Alternates building a join table of N sparse keys with and without the look-ahead; prints median ns/row of each. */
public class LookAhead {
    public static void main(String[] a) throws Exception {
        int rows = Integer.parseInt(a[0]); long spread = Long.parseLong(a[1]); int rounds = Integer.parseInt(a[2]);
        Memory memory = new Memory(4L << 30);
        BufferAllocator allocator = memory.child("la", 2L << 30);
        Random random = new Random(1);
        BigIntVector keys = new BigIntVector("k", allocator);
        keys.allocateNew(rows);
        for (int i = 0; i < rows; i++) keys.set(i, (long) (random.nextDouble() * rows * spread));
        keys.setValueCount(rows);
        long[][] t = new long[2][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int mode = 0; mode < 2; mode++) {
                GroupHashTable.LOOK_AHEAD_ENTRIES = mode == 0 ? Integer.MAX_VALUE : 1 << 18;
                try (MemoryCharge charge = new MemoryCharge(allocator, "t");
                     GroupHashTable table = GroupHashTable.forJoin(List.of(SqlType.BIGINT), allocator, charge)) {
                    long start = System.nanoTime();
                    table.reserve(new FieldVector[] {keys}, rows);
                    int chunk = 4096; int[] pos = new int[chunk]; int[] ids = new int[chunk];
                    for (int from = 0; from < rows; from += chunk) {
                        int n = Math.min(chunk, rows - from);
                        for (int i = 0; i < n; i++) pos[i] = from + i;
                        table.groupIds(new FieldVector[] {keys}, pos, n, ids);
                    }
                    t[mode][r] = System.nanoTime() - start;
                }
            }
        }
        for (int mode = 0; mode < 2; mode++) { long[] s = t[mode].clone(); Arrays.sort(s); System.out.printf("%s median %.1f ns/row%n", mode == 0 ? "without" : "with", s[rounds / 2] / (double) rows); }
        double[] ratio = new double[rounds]; for (int r = 0; r < rounds; r++) ratio[r] = t[1][r] / (double) t[0][r]; Arrays.sort(ratio);
        System.out.printf("with/without per round: median %.3f (p25 %.3f, p75 %.3f)%n", ratio[rounds / 2], ratio[rounds / 4], ratio[3 * rounds / 4]);
        keys.close(); allocator.close(); memory.close();
    }
}

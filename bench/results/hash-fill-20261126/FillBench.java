package dev.columba.core.exec;

import dev.columba.core.context.QueryContext;
import dev.columba.core.expr.EvaluationContext;
import dev.columba.core.memory.Memory;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.LocalDateTime;
import java.util.*;
import org.apache.arrow.memory.BufferAllocator;

/** Thread CPU and wall time of a shared build read by each of W workers (empty probe), parallel fill on or off. */
public class FillBench {
    static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    public static void main(String[] args) throws Exception {
        String kind = args[0];
        int rows = Integer.parseInt(args[1]);
        int iterations = Integer.parseInt(args[2]);
        boolean pair = kind.equals("pair");
        TableSchema schema = pair ? TableSchema.of(Column.nullable("a", SqlType.INT), Column.nullable("b", SqlType.INT), Column.nullable("p", SqlType.INT))
                : TableSchema.of(Column.nullable("k", SqlType.BIGINT), Column.nullable("p", SqlType.INT));
        Random random = new Random(1);
        List<List<Object[]>> shares = List.of(new ArrayList<>(), new ArrayList<>());
        for (int row = 0; row < rows; row++) {
            Object[] r = switch (kind) {
                case "dense" -> new Object[] {(long) row * 4, row};
                case "hashed" -> new Object[] {(random.nextLong() >>> 20) / 4 * 4 + (row % 4 == 0 ? 0 : 0) , row};
                default -> new Object[] {random.nextInt(rows / 4), random.nextInt(10000), row};
            };
            shares.get(row < rows / 2 ? 0 : 1).add(r);
        }
        List<Integer> keys = pair ? List.of(0, 1) : List.of(0);
        Memory memory = new Memory(8L << 30);
        BufferAllocator query = memory.child("query", 6L << 30);
        for (String mode : new String[] {"serial", "parallel", "serial", "parallel", "serial", "parallel"}) {
            long[] wall = new long[iterations]; long[] cpuSum = new long[iterations]; long[] cpuMax = new long[iterations];
            for (int it = 0; it < iterations; it++) {
                SharedHashBuild shared = SharedHashBuild.readByEach();
                List<HashJoinOperator> ops = new ArrayList<>();
                for (int w = 0; w < 2; w++) {
                    HashJoinOperator op = new HashJoinOperator(ListSource.of(schema, List.of(), 4096), ListSource.of(schema, shares.get(w), 4096),
                            JoinType.INNER, keys, keys, null, shared);
                    if (mode.equals("serial")) op.fillInParallelFrom(Integer.MAX_VALUE, 4096);
                    ops.add(op);
                }
                long[] cpu = new long[2];
                Thread[] threads = new Thread[2];
                long t0 = System.nanoTime();
                for (int w = 0; w < 2; w++) {
                    int worker = w;
                    threads[w] = new Thread(() -> {
                        ExecutionContext context = new ExecutionContext(QueryContext.withDefaults(), query, 4096, new EvaluationContext(LocalDateTime.now()));
                        HashJoinOperator op = ops.get(worker);
                        op.open(context);
                        long c0 = MX.getCurrentThreadCpuTime();
                        op.next();
                        cpu[worker] = MX.getCurrentThreadCpuTime() - c0;
                        op.close();
                    });
                    threads[w].start();
                }
                for (Thread t : threads) t.join();
                wall[it] = System.nanoTime() - t0;
                cpuSum[it] = cpu[0] + cpu[1];
                cpuMax[it] = Math.max(cpu[0], cpu[1]);
            }
            Arrays.sort(wall); Arrays.sort(cpuSum); Arrays.sort(cpuMax);
            System.out.printf("%s %s rows=%d wall %.1f ms, cpu both %.1f ms, cpu busiest %.1f ms%n", kind, mode, rows,
                    wall[iterations / 2] / 1e6, cpuSum[iterations / 2] / 1e6, cpuMax[iterations / 2] / 1e6);
        }
        query.close(); memory.close();
    }
}

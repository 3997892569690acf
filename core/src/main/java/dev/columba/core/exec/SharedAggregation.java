package dev.columba.core.exec;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The groups the workers of one parallel fragment aggregate together, partitioned by the hash of
 * their keys ({@link #partitionOf}; a single whole-number key by its value, {@link
 * #wholeNumberPartitionOf}) (DuckDB's radix-partitioned hash aggregation, Velox's partitioned partial aggregate):
 * every worker's {@link HashAggregateOperator} {@linkplain HashAggregateOperator#mergeAcrossWorkers
 * merging across workers} aggregates its rows into one group table per partition, hands its tables
 * in, and once every registered worker has, finishes partition {@code p = its number} alone: it
 * looks the groups of each of the workers' partition-p tables up in the tables before it (the
 * largest first), merges those it finds, and returns the rest from where they are. Rows with
 * equal keys are in one partition in every worker, so each group is finished by one worker.
 * Unlike a repartition of the partial groups (copied into batches per partition, then inserted
 * again into a table of the final merge), nothing is copied and no group is inserted twice.
 *
 * <p>Registration happens when the workers' operators are made, before any runs, so the number of
 * partitions (one per worker) is known when the first rows are sorted. The tables live in an
 * allocator of their own under the query's, made by the first worker to need it; each table is
 * recorded here when it is made. After the hand-ins the tables of partition p belong to worker p,
 * which {@linkplain #closePartition closes} them when it has returned its groups; the last
 * registered worker to close frees whatever is left and the allocator, so a worker that stops
 * half-way leaks nothing. A worker that fails or closes before handing in fails the workers
 * waiting for it, and the first failure is thrown to every worker that waits or asks later.
 *
 * <p>Memory visibility: a worker's tables are written before it hands in (under this monitor) and
 * read by others only after they saw every hand-in (under the monitor), so the monitor orders
 * every write before every read. After the hand-ins each table is read and written by the one
 * worker whose partition it belongs to.
 */
public final class SharedAggregation extends WorkerHandIns {
    /** Per worker, its tables by partition (null until made, and again once closed). */
    private final List<PartitionTable[]> tables = new ArrayList<>();

    /** The groups of one partition aggregated by one worker: the keys' table and one accumulator per call. */
    static final class PartitionTable implements AutoCloseable {
        final GroupHashTable groups;
        final List<Accumulators.Accumulator> accumulators;
        private final List<MemoryCharge> charges;

        PartitionTable(GroupHashTable groups, List<Accumulators.Accumulator> accumulators, List<MemoryCharge> charges) {
            this.groups = groups;
            this.accumulators = accumulators;
            this.charges = charges;
        }

        @Override
        public void close() {
            if (groups != null) {
                groups.close();
            }
            for (Accumulators.Accumulator accumulator : accumulators) {
                accumulator.close();
            }
            for (MemoryCharge charge : charges) {
                charge.close();
            }
        }
    }

    /**
     * The partition of a row whose keys hash to {@code hash}, of {@code partitions}: the high
     * bits, as a repartition takes them, so that a table over one partition still spreads its keys
     * over all its slots, which it picks by the low bits.
     */
    static int partitionOf(long hash, int partitions) {
        return (int) (((hash >>> 32) * partitions) >>> 32);
    }

    /**
     * The partition of a single whole-number key {@code value}: its value modulo {@code
     * partitions}, so that each partition's table can index its dense array by {@code value /
     * partitions} ({@code GroupHashTable.holdResidue}) and cover its keys without the others' gaps:
     * the dense arrays of all partitions together are as long as one table's over all keys (with
     * the hash's partitions each would span all keys). Keys in order spread evenly; keys that are
     * mostly multiples of the partition count would gather in few partitions (their groups are
     * then finished by few workers, still correctly).
     */
    static int wholeNumberPartitionOf(long value, int partitions) {
        return (int) Math.floorMod(value, (long) partitions);
    }

    /** A worker's number is the partition it finishes, and the index of the tables it makes. */
    @Override
    void workerRegistered() {
        tables.add(null);
    }

    /** The allocator of every worker's tables (their keys' vectors and memory charges), made on first use. */
    synchronized BufferAllocator memory(ExecutionContext context) {
        return memory(context, "partitioned aggregation");
    }

    /** Records {@code worker}'s table of {@code partition} for release, as soon as it is made. */
    synchronized void record(int worker, int partition, PartitionTable table) {
        if (tables.get(worker) == null) {
            tables.set(worker, new PartitionTable[partitions()]);
        }
        tables.get(worker)[partition] = table;
    }

    /**
     * {@code worker} has aggregated all its rows into its tables; waits until every registered
     * worker has, then returns the tables of {@code worker}'s partition from all of them, in worker
     * order. From then on they are {@code worker}'s alone.
     */
    List<PartitionTable> handIn(ExecutionContext context, int worker) {
        synchronized (this) {
            handInAndAwaitAll(context, "a partitioned aggregation");
            List<PartitionTable> partition = new ArrayList<>();
            for (PartitionTable[] byPartition : tables) {
                partition.add(byPartition[worker]);
            }
            return partition;
        }
    }

    /** Frees the tables of {@code partition}: the worker that finished it has returned its groups. */
    void closePartition(int partition) {
        List<PartitionTable> toClose = new ArrayList<>();
        synchronized (this) {
            for (PartitionTable[] byPartition : tables) {
                if (byPartition != null && byPartition[partition] != null) {
                    toClose.add(byPartition[partition]);
                    byPartition[partition] = null;
                }
            }
        }
        for (PartitionTable table : toClose) {
            table.close();
        }
    }

    /**
     * A registered worker is done; {@code handedInRows} says whether it handed in. One that did not
     * fails the others still waiting; the last one to release frees every table left and the allocator.
     */
    void release(boolean handedInRows) {
        release(handedInRows, "a partitioned aggregation");
    }

    @Override
    Runnable takeEverything() {
        List<PartitionTable> toClose = new ArrayList<>();
        for (PartitionTable[] byPartition : tables) {
            if (byPartition == null) {
                continue;
            }
            for (int partition = 0; partition < byPartition.length; partition++) {
                if (byPartition[partition] != null) {
                    toClose.add(byPartition[partition]);
                    byPartition[partition] = null;
                }
            }
        }
        return () -> toClose.forEach(PartitionTable::close);
    }
}

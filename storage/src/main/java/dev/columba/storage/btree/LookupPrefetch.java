package dev.columba.storage.btree;

import dev.columba.core.stats.IoCounters;
import dev.columba.storage.buffer.Access;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.buffer.SequentialReadAhead;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;

/**
 * Random prefetch for index lookups, SQL Server's nested-loop prefetch: the keys an index
 * nested-loop join will probe next are known from its outer side, so the leaves they land on can
 * be read asynchronously, many at once, before the probes ask for them. Without it each probe of a
 * cold index waits for one random read at a time.
 *
 * <p>Feed it the upcoming keys in probe order; call {@link #advance()} once per probe. It keeps up
 * to {@code depth} leaves requested ahead of the probes (the internal pages on the way are read
 * synchronously, as they are few and soon resident). Probes may consume in any order: the reads
 * only warm the pool. Close it to settle pages that were prefetched and never probed as wasted.
 */
public final class LookupPrefetch implements AutoCloseable {
    private final SequentialReadAhead reads;

    /**
     * @param upcomingKeys the memcomparable keys of the probes to come, in probe order
     * @param depth        leaves kept requested ahead of the probes ({@code prefetch_depth})
     */
    public LookupPrefetch(BTree tree, PageReader reader, Iterator<byte[]> upcomingKeys, int depth, IoCounters counters) {
        PrimitiveIterator.OfLong leaves = new PrimitiveIterator.OfLong() {
            private long previous = -1;
            private long pending = -1;

            @Override
            public boolean hasNext() {
                while (pending < 0 && upcomingKeys.hasNext()) {
                    BTree.Path path = tree.descend(reader, upcomingKeys.next(), counters);
                    path.releaseLeaf();
                    long leaf = path.leaf;
                    if (leaf != previous) {
                        pending = leaf;
                    }
                }
                return pending >= 0;
            }

            @Override
            public long nextLong() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                previous = pending;
                pending = -1;
                return previous;
            }
        };
        // One page per I/O: lookups land on scattered leaves; several I/Os in flight give the depth.
        this.reads = new SequentialReadAhead(reader.bufferPool(), leaves, depth, 1, Access.RANDOM, counters);
    }

    /** A probe is about to be made: keep the prefetch window full. */
    public void advance() {
        reads.advance();
    }

    /** Prefetch I/O requests issued so far. */
    public long requests() {
        return reads.requests();
    }

    @Override
    public void close() {
        reads.close();
    }
}

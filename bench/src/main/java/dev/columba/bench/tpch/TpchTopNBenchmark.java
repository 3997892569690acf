package dev.columba.bench.tpch;

import dev.columba.bench.harness.BenchDirectories;
import dev.columba.bench.peers.LineitemDatabases;
import dev.columba.bench.peers.Peer;
import dev.columba.bench.peers.PeerConnection;
import dev.columba.bench.peers.QueryResult;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A top-N over lineitem on Columba's columnstore, warm, at {@code threads} workers ({@code max_dop}):
 * the 100 most expensive line items of one ship mode's complement, in a total order. With several
 * workers each keeps its own 100 and the final top-N above the gather picks from theirs. Not part
 * of the tpch suite (it is not a TPC-H text); run it with JMH's runner over the tpch suite's
 * databases, which must have been loaded by {@code ./columba bench tpch} before:
 * {@code java -cp bench/target/classes:bench/target/lib/* org.openjdk.jmh.Main TpchTopNBenchmark
 * -p dataDirectory=DIR -p threads=1,2}.
 *
 * <p>Before measuring, the answer at one worker is recorded and the answer at {@code threads}
 * must equal it; every measured answer is checked against it too. Caveat: the two cores are
 * shared with other processes, so compare ratios within one run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(1)
public class TpchTopNBenchmark {
    static final String SQL = """
            SELECT l_orderkey, l_linenumber, l_extendedprice, l_shipdate
            FROM lineitem
            WHERE l_shipmode <> 'AIR'
            ORDER BY l_extendedprice DESC, l_orderkey, l_linenumber
            FETCH FIRST 100 ROWS ONLY""";

    @Param(LineitemDatabases.FULL_SCALE_FACTOR)
    public double scaleFactor;

    /** Columba's max_dop for the query. */
    @Param({"1", "2"})
    public int threads;

    /** Parent of the benchmark databases; empty means bench/target/data. */
    @Param("")
    public String dataDirectory;

    private PeerConnection connection;
    private QueryResult expected;
    private QueryResult result;

    @Setup(Level.Trial)
    public void connect() {
        TpchDatabases.Description databases = TpchDatabases.recorded(BenchDirectories.data(dataDirectory), scaleFactor)
                .orElseThrow(() -> new ColumbaException(ErrorCode.INVALID_ARGUMENT,
                        "no TPC-H databases at scale factor " + scaleFactor + ": run ./columba bench tpch first"));
        connection = new PeerConnection(Peer.COLUMBA_COLUMNSTORE, databases.directory(), TpchDatabases.NAME);
        connection.useThreads(1);
        expected = connection.run("top-N", SQL);
        if (expected.rows().size() != 100) {
            throw new ColumbaException(ErrorCode.INTERNAL, "the top-N returned " + expected.rows().size() + " rows, not 100");
        }
        connection.useThreads(threads);
        check(connection.run("top-N", SQL));
    }

    @Benchmark
    public QueryResult run() {
        result = connection.run("top-N", SQL);
        return result;
    }

    @TearDown(Level.Invocation)
    public void checkQuery() {
        check(result);
    }

    @TearDown(Level.Trial)
    public void disconnect() {
        if (connection != null) {
            connection.close();
        }
    }

    private void check(QueryResult actual) {
        Optional<String> difference = actual.difference(expected);
        if (difference.isPresent()) {
            throw new ColumbaException(ErrorCode.INTERNAL, "the top-N at " + threads + " threads differs from one thread's: "
                    + difference.get());
        }
    }
}

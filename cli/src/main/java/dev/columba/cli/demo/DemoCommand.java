package dev.columba.cli.demo;

import dev.columba.cli.Main;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code columba demo}'s command line; {@link SeedDemo} runs it. */
@Command(name = "demo", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Replays seed 000 (read-ahead and random prefetch, with I/O counters checked against "
                + "/proc/self/io) in SQL through the JDBC driver on an embedded database.")
public final class DemoCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--rows", paramLabel = "N", converter = Count.class, defaultValue = "1000000",
            description = "rows of TestTable (at least 1000; underscores allowed: 1_000_000); default ${DEFAULT-VALUE}")
    private long rows;

    @Option(names = "--dir", paramLabel = "PATH",
            description = "the database directory, reused if it already holds TestTable; default a temporary one, deleted afterwards")
    private Path directory;

    @Option(names = "--keep", description = "keep the temporary database")
    private boolean keep;

    private final PrintStream out;

    public DemoCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() throws Exception {
        if (rows < 1000) {
            throw new ParameterException(spec.commandLine(), "--rows must be at least 1000 (the loop join reads ID < 1000)");
        }
        return new SeedDemo(out, rows, directory, keep).run();
    }

    /** A whole number, with underscores between digit groups allowed. */
    static final class Count implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return Long.parseLong(value.replace("_", ""));
            } catch (NumberFormatException notANumber) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a whole number");
            }
        }
    }
}

package dev.columba.cli;

import dev.columba.cli.demo.DemoCommand;
import dev.columba.cli.diag.DiagCommand;
import dev.columba.cli.inspect.InspectCommand;
import dev.columba.cli.repair.RepairCommand;
import dev.columba.cli.sql.SqlCommand;
import dev.columba.jdbc.ColumbaDriver;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code columba} command. One parser (picocli) for every subcommand, so that each has
 * {@code --help} and {@code --version}, and every usage error is a message naming the command,
 * its usage and exit code 2.
 */
@Command(name = "columba", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        synopsisSubcommandLabel = "COMMAND",
        description = "Columba, an embedded columnstore analytics engine for the JVM.",
        footer = {"", "The launcher ./columba also runs: test (build and run every test), build, bench [suite] "
                + "(JMH benchmarks; bench --help), server <dir> (PostgreSQL wire protocol; server --help)."})
public final class Main implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    private final PrintStream err;

    private Main(PrintStream err) {
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.in, System.out, System.err));
    }

    /** Runs {@code args} with the process's standard input; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, System.in, out, err);
    }

    /** Runs the subcommand {@code args} name, reading typed input from {@code in}; returns the exit code. */
    public static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
        CommandLine line = new CommandLine(new Main(err))
                .addSubcommand("sql", new SqlCommand(in, out, err))
                .addSubcommand("demo", new DemoCommand(out))
                .addSubcommand("inspect", new InspectCommand(out, err))
                .addSubcommand("diag", new CommandLine(new DiagCommand(err))
                        .addSubcommand("dictionary", new DiagCommand.Dictionary(out, err)))
                .addSubcommand("repair", new RepairCommand(out, err));
        line.setOut(new PrintWriter(out, true));
        line.setErr(new PrintWriter(err, true));
        line.setParameterExceptionHandler((problem, arguments) -> {
            CommandLine command = problem.getCommandLine();
            err.println(command.getCommandSpec().qualifiedName() + ": " + problem.getMessage());
            command.usage(err);
            return CommandLine.ExitCode.USAGE;
        });
        return line.execute(args);
    }

    /** {@code columba} alone: the usage, as a usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(err);
        return CommandLine.ExitCode.USAGE;
    }

    /** The version of the engine, as its driver reports it. */
    public static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"columba " + ColumbaDriver.version() + " (Java " + Runtime.version() + ")"};
        }
    }
}

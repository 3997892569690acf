package dev.columba.cli.sql;

import dev.columba.cli.Main;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code columba sql}'s command line; {@link SqlShell} runs it. */
@Command(name = "sql", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = {"Runs SQL on an embedded database: the statements of -c and -f in order, or else those typed "
                + "at the prompt (end a statement with ; or a line GO; \\? lists the shell's commands).",
            "Exit codes: 0, 1 if a statement failed, 2 for bad arguments or a database that cannot be opened."})
public final class SqlCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "<dir> | mem:<name>",
            description = "a database directory (created if missing) or an in-memory database; default mem:shell")
    private String target;

    @Option(names = "-c", paramLabel = "SQL", description = "statements to run (repeatable)")
    private List<String> commands = new ArrayList<>();

    @Option(names = "-f", paramLabel = "FILE", description = "a file of statements to run, after the -c ones")
    private Path file;

    @Option(names = "--stop-on-error", description = "stop at the first statement that fails")
    private boolean stopOnError;

    private final InputStream in;
    private final PrintStream out;
    private final PrintStream err;

    public SqlCommand(InputStream in, PrintStream out, PrintStream err) {
        this.in = in;
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() throws IOException {
        boolean typing = commands.isEmpty() && file == null;
        if (!typing || in != System.in || System.console() == null || !System.console().isTerminal()) {
            return SqlShell.run(target, commands, file, stopOnError, in, null, out, err);
        }
        try (Terminal terminal = TerminalBuilder.builder().system(true).build()) {
            return SqlShell.run(target, commands, file, stopOnError, in, terminal, out, err);
        }
    }
}

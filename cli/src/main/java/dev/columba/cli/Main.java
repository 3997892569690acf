package dev.columba.cli;

import dev.columba.cli.inspect.Inspect;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/** The {@code columba} command: dispatches to the subcommand named by the first argument. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the subcommand {@code args[0]} with the rest of the arguments; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length == 0) {
            usage(err);
            return 2;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        return switch (args[0]) {
            case "demo" -> {
                out.println("Columba");
                out.println("The storage engine's demonstration arrives with the rowstore (issue 2); nothing to run yet.");
                yield 0;
            }
            case "inspect" -> Inspect.run(List.of(rest), out, err);
            default -> {
                err.println("columba: unknown command '" + args[0] + "'");
                usage(err);
                yield 2;
            }
        };
    }

    private static void usage(PrintStream err) {
        err.println("usage: columba demo | test | inspect <path> [options] | bench [suite]");
    }
}

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
            case "demo" -> demo(rest, out, err);
            case "inspect" -> Inspect.run(List.of(rest), out, err);
            case "diag" -> dev.columba.cli.diag.DiagCommand.run(rest, out, err);
            case "sql" -> dev.columba.cli.sql.SqlShell.run(rest, System.in, out, err);
            case "repair" -> dev.columba.cli.repair.RepairCommand.run(rest, out, err);
            default -> {
                err.println("columba: unknown command '" + args[0] + "'");
                usage(err);
                yield 2;
            }
        };
    }

    private static int demo(String[] args, PrintStream out, PrintStream err) throws Exception {
        long rows = 1_000_000;
        java.nio.file.Path directory = null;
        boolean keep = false;
        for (int index = 0; index < args.length; index++) {
            switch (args[index]) {
                case "--rows" -> rows = Long.parseLong(args[++index].replace("_", ""));
                case "--dir" -> directory = java.nio.file.Path.of(args[++index]);
                case "--keep" -> keep = true;
                default -> {
                    err.println("columba demo: unknown option '" + args[index] + "' (options: --rows N, --dir PATH, --keep)");
                    return 2;
                }
            }
        }
        if (rows < 1000) {
            err.println("columba demo: --rows must be at least 1000 (the loop join reads ID < 1000)");
            return 2;
        }
        return new dev.columba.cli.demo.SeedDemo(out, rows, directory, keep).run();
    }

    private static void usage(PrintStream err) {
        err.println("usage: columba demo | test | sql [<dir>] [-c SQL] [-f FILE] | inspect <path> [options] | "
                + "diag dictionary <db> [options] | repair <db> [--point-in-time] | server <dir> [--port N] | bench [suite]");
    }
}

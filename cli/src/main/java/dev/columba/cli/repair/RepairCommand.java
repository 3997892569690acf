package dev.columba.cli.repair;

import dev.columba.cli.Main;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.settings.StandardSettings;
import dev.columba.core.settings.WalRecoveryMode;
import dev.columba.storage.db.Database;
import dev.columba.storage.db.DatabaseLayout;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.wal.LogEnd;
import dev.columba.storage.wal.LogRepair;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code columba repair <dir> [--point-in-time]}. Without the option it opens the database as any
 * client would (recovery refuses a damaged log and changes nothing) and says what it found. With
 * it, it opens the database with {@code wal_recovery_mode = point_in_time}: a damaged log is cut at
 * its last consistent point, after its files are copied into {@code damaged/}, and what was
 * discarded is printed. Exit codes: 0 the database opened, 1 it did not, 2 bad usage.
 */
@Command(name = "repair", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = {"Opens a database as a client would and says what recovery found; a damaged log is refused "
                + "and nothing is changed, unless --point-in-time is given.",
            "Exit codes: 0 the database opened, 1 it did not, 2 bad usage."})
public final class RepairCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<database directory>")
    private Path directory;

    @Option(names = "--point-in-time", description = "cut a damaged log at its last consistent point, after copying its "
            + "files into damaged/, discarding every transaction after it")
    private boolean pointInTime;

    private final PrintStream out;
    private final PrintStream err;

    public RepairCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        if (!Files.exists(DatabaseLayout.controlFile(directory))) {
            err.println("columba repair: " + directory + " is not a database directory (it has no control file)");
            return 2;
        }
        Properties settings = new Properties();
        if (pointInTime) {
            settings.setProperty(StandardSettings.WAL_RECOVERY_MODE.name(),
                    WalRecoveryMode.POINT_IN_TIME.name().toLowerCase(Locale.ROOT));
        }
        try (Database database = Database.open(directory, settings, NativeFilesFacade.INSTANCE)) {
            Database.RecoveryReport report = database.recoveryReport();
            LogRepair repair = report.logRepair();
            if (repair != null) {
                out.println("WARNING: " + repair.describe());
            }
            if (report.logTail() instanceof LogEnd.Torn torn) {
                out.println("a torn tail was cut: " + torn.discardedBytes() + " bytes from offset " + torn.offset()
                        + " of " + torn.file() + " (" + torn.reason() + "); they are kept under "
                        + DatabaseLayout.damagedDirectory(directory));
            }
            out.println("database " + directory + " opened: the log ends at LSN " + report.endLsn() + ", "
                    + report.transactionsReplayed() + " transactions replayed from LSN " + report.redoLsn()
                    + (repair == null ? "; the log is sound" : ""));
            return 0;
        } catch (ColumbaException failure) {
            err.println("columba repair: " + failure.getMessage());
            if (!pointInTime && failure.errorCode().category() == dev.columba.core.error.ErrorCode.Category.CORRUPTION) {
                err.println("Nothing was changed. To recover to the last consistent point before the damage, discarding "
                        + "every transaction after it: ./columba repair " + directory + " --point-in-time");
            }
            return 1;
        }
    }
}

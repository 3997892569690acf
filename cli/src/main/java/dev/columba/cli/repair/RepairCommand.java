package dev.columba.cli.repair;

import dev.columba.cli.Main;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.settings.StandardSettings;
import dev.columba.core.settings.WalRecoveryMode;
import dev.columba.storage.db.Database;
import dev.columba.storage.db.DatabaseLayout;
import dev.columba.storage.db.DatabaseProperties;
import dev.columba.storage.file.FileManifest;
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
 * {@code columba repair <dir> [--point-in-time | --reseal-properties]}. Without an option it checks
 * {@code columba.properties} and {@code data/files.properties} and opens the database as any client would (recovery refuses a damaged
 * log, the opening refuses a damaged properties file, and nothing is changed) and says what it
 * found. With {@code --point-in-time}, it opens the database with {@code wal_recovery_mode =
 * point_in_time}: a damaged log is cut at its last consistent point, after its files are copied into
 * {@code damaged/}, and what was discarded is printed. With {@code --reseal-properties}, a
 * {@code columba.properties} or {@code data/files.properties} whose checksum is wrong but which still parses is copied into
 * {@code damaged/} and written again with a new checksum, and the settings it keeps are printed for
 * a person to check (storage's {@code DatabaseProperties.reseal}). Exit codes: 0 the database opened
 * (or the file was resealed or sound), 1 it did not, 2 bad usage.
 */
@Command(name = "repair", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = {"Opens a database as a client would and says what recovery found; a damaged log or "
                + "columba.properties or data/files.properties is refused and nothing is changed, unless --point-in-time or --reseal-properties "
                + "is given.",
            "Exit codes: 0 the database opened, 1 it did not, 2 bad usage."})
public final class RepairCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<database directory>")
    private Path directory;

    @Option(names = "--point-in-time", description = "cut a damaged log at its last consistent point, after copying its "
            + "files into damaged/, discarding every transaction after it")
    private boolean pointInTime;

    @Option(names = "--reseal-properties", description = "write a columba.properties or data/files.properties whose checksum is wrong, but which "
            + "still parses, again with a new checksum, after copying it into damaged/; prints the settings it keeps")
    private boolean resealProperties;

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
        if (resealProperties && pointInTime) {
            err.println("columba repair: give --point-in-time or --reseal-properties, not both");
            return 2;
        }
        if (resealProperties) {
            try {
                out.println(DatabaseProperties.reseal(directory, NativeFilesFacade.INSTANCE));
                return 0;
            } catch (ColumbaException failure) {
                err.println("columba repair: " + failure.getMessage());
                err.println("Nothing was changed: the file does not parse as a columba.properties or files.properties this"
                        + " build reads; docs/format/database-directory.md describes their lines");
                return 1;
            }
        }
        try {
            if (Files.exists(DatabaseLayout.propertiesFile(directory))) {
                DatabaseProperties.readFile(DatabaseLayout.propertiesFile(directory));
            }
            FileManifest.read(DatabaseLayout.dataDirectory(directory));
        } catch (ColumbaException failure) {
            // --point-in-time cannot help a damaged properties file or manifest: say only what is wrong.
            err.println("columba repair: " + failure.getMessage());
            return 1;
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

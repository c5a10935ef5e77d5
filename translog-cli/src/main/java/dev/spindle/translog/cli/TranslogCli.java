package dev.spindle.translog.cli;

import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code spindle-translog}: inspects, verifies, dumps and repairs a Spindle translog directory
 * without opening the translog. See {@link ExitCodes} for what the exit codes mean.
 */
@Command(
    name = "spindle-translog",
    mixinStandardHelpOptions = true,
    versionProvider = TranslogCli.Version.class,
    description = {
      "Inspects, verifies, dumps and repairs a Spindle translog directory without opening the"
          + " translog. Every command but 'truncate --yes' only reads; each takes the directory's"
          + " lock, and refuses a translog that a process holds open."
    },
    subcommands = {
      InspectCommand.class,
      VerifyCommand.class,
      DumpCommand.class,
      TruncateCommand.class,
      CommandLine.HelpCommand.class
    },
    footer = {
      "",
      "Exit codes:",
      "  0   done; verify: clean, opens in the mode with nothing cut",
      "  1   verify, truncate dry run: damage that the mode cuts off;",
      "      dump: damage ends a generation's records early",
      "  2   verify, truncate: the mode refuses the translog (opening fails)",
      "  3   a process holds the translog open (translog.lock is locked)",
      "  4   the directory is missing, holds no translog, or an I/O error",
      "  64  wrong usage",
      "  70  a bug: an unexpected exception, with its stack trace",
      "",
      "Example:",
      "  spindle-translog verify --mode point-in-time /var/lib/app/translog"
    })
public final class TranslogCli implements Runnable {

  /** Held, so that the level set on it stays set: the logging framework keeps loggers weakly. */
  private static final Logger LIBRARY_LOGGER = Logger.getLogger("dev.spindle.translog");

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  private TranslogCli() {}

  /** Runs the command line and exits with its code. */
  public static void main(String[] args) {
    // The library logs the cut of a repair as a warning; the tool prints what it does itself.
    LIBRARY_LOGGER.setLevel(Level.OFF);
    PrintStream stdout = System.out;
    PrintStream stderr = System.err;
    int code =
        execute(
            new PrintWriter(new OutputStreamWriter(stdout, stdout.charset()), true),
            new PrintWriter(new OutputStreamWriter(stderr, stderr.charset()), true),
            args);
    System.exit(code);
  }

  /**
   * Runs the command line, writing to {@code out} and {@code err}, and returns the exit code.
   * Flushes both writers before it returns.
   */
  static int execute(PrintWriter out, PrintWriter err, String... args) {
    CommandLine commandLine = new CommandLine(new TranslogCli());
    commandLine.setOut(out);
    commandLine.setErr(err);
    commandLine.setParameterExceptionHandler(
        (e, arguments) -> {
          CommandLine failed = e.getCommandLine();
          failed.getErr().println(failed.getCommandName() + ": " + e.getMessage());
          failed.usage(failed.getErr());
          return ExitCodes.USAGE;
        });
    commandLine.setExecutionExceptionHandler(
        (e, failed, parsed) -> {
          failed.getErr().println(failed.getCommandName() + ": unexpected failure");
          e.printStackTrace(failed.getErr());
          return ExitCodes.SOFTWARE;
        });
    try {
      return commandLine.execute(args);
    } finally {
      out.flush();
      err.flush();
    }
  }

  /** Without a command: prints the usage. */
  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The version in the executable jar's manifest ("unknown" when run from classes). */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = TranslogCli.class.getPackage().getImplementationVersion();
      return new String[] {
        "spindle-translog " + (version == null ? "unknown" : version) + " (translog format 2)"
      };
    }
  }
}

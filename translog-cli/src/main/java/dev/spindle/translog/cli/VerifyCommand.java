package dev.spindle.translog.cli;

import dev.spindle.translog.RecoveryMode;
import dev.spindle.translog.TranslogCorruptedException;
import dev.spindle.translog.TranslogFormatVersionException;
import dev.spindle.translog.inspect.RecoveryPreview;
import dev.spindle.translog.inspect.TranslogInspector;
import java.io.IOException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code verify DIR [--mode M]}: a dry run of recovery in one mode, by the recovery planner that
 * {@code Translog.open} uses, changing nothing. Its exit code is the verdict.
 */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    description = {
      "Dry-runs recovery in a mode: clean, recoverable or unrecoverable.",
      "",
      "Runs recovery in the given mode as a dry run, with the planner that opening the translog"
          + " uses, and changes nothing. Prints what the mode keeps (generations, byte ranges,"
          + " operations, seqNo ranges), where it cuts and why (file, offset, what was expected),"
          + " what it drops, and every file opening in that mode would delete, replace or create.",
      "Exit code: 0 clean (opens with nothing cut), 1 damaged but recoverable in this mode (the"
          + " mode cuts the translog), 2 unrecoverable in this mode (opening fails; the error, with"
          + " file and offset, goes to standard error), 3 locked, 4 unreadable."
    },
    footer = {
      "",
      "Examples:",
      "  spindle-translog verify /var/lib/app/translog",
      "  spindle-translog verify --mode point-in-time /var/lib/app/translog"
    })
final class VerifyCommand extends DirectoryCommand {

  @Option(
      names = "--mode",
      paramLabel = "MODE",
      defaultValue = "strict",
      converter = ModeConverter.class,
      completionCandidates = ModeConverter.class,
      description = "recovery mode: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
  RecoveryMode mode;

  @Override
  int run(TranslogInspector inspector) throws IOException {
    PlanPrinter printer = new PlanPrinter(out(), inspector);
    RecoveryPreview preview;
    try {
      preview = inspector.preview(mode);
    } catch (TranslogCorruptedException | TranslogFormatVersionException e) {
      printer.printRefusal(mode, e);
      return fail(ExitCodes.UNRECOVERABLE, e.getMessage());
    }
    printer.print(preview);
    return preview.cuts() ? ExitCodes.RECOVERABLE : ExitCodes.CLEAN;
  }
}

package dev.spindle.translog.cli;

import static dev.spindle.translog.cli.Describe.count;

import dev.spindle.translog.RecoveryMode;
import dev.spindle.translog.TranslogCorruptedException;
import dev.spindle.translog.TranslogFormatVersionException;
import dev.spindle.translog.inspect.RecoveryPreview;
import dev.spindle.translog.inspect.TranslogInspector;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code truncate DIR --mode M [--yes] [--backup B]}: prints the plan of a recovery mode that cuts,
 * as {@code verify} does; with {@code --yes}, backs up every file the plan deletes or overwrites
 * and carries it out.
 */
@Command(
    name = "truncate",
    mixinStandardHelpOptions = true,
    description = {
      "Cuts a damaged translog at its damage, after a backup; dry run by default.",
      "",
      "Cuts a damaged translog at its damage, as opening it in the given mode would. Without"
          + " --yes, a dry run: prints the plan as 'verify' does and changes nothing. With --yes,"
          + " first copies every file the plan deletes or overwrites, byte for byte, into a backup"
          + " directory (with UNDO.txt, saying how to undo the repair by hand), then carries the"
          + " plan out; the translog then opens in strict mode. The cut generation's file is left"
          + " as it is: its new sealed checkpoint ends it at the cut.",
      "Exit code: 0 nothing to cut, or repaired; 1 dry run of a plan that cuts; 2 the mode"
          + " refuses the translog; 3 locked; 4 unreadable, or the repair failed."
    },
    footer = {
      "",
      "Examples:",
      "  spindle-translog truncate --mode point-in-time /var/lib/app/translog",
      "  spindle-translog truncate --mode point-in-time --yes /var/lib/app/translog"
    })
final class TruncateCommand extends DirectoryCommand {

  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

  @Option(
      names = "--mode",
      paramLabel = "MODE",
      required = true,
      converter = ModeConverter.Cutting.class,
      completionCandidates = ModeConverter.Cutting.class,
      description = "the recovery mode whose cut to make: ${COMPLETION-CANDIDATES}")
  RecoveryMode mode;

  @Option(
      names = "--yes",
      description = "carry the plan out (after the backup); without it, only print the plan")
  boolean yes;

  @Option(
      names = "--backup",
      paramLabel = "BACKUP",
      description =
          "where to copy what the repair deletes or overwrites: a new or empty directory"
              + " (default: DIR.backup-<UTC time>, beside DIR)")
  Path backup;

  @Override
  int run(TranslogInspector inspector) throws IOException {
    PrintWriter out = out();
    PlanPrinter printer = new PlanPrinter(out, inspector);
    RecoveryPreview preview;
    try {
      preview = inspector.preview(mode);
    } catch (TranslogCorruptedException | TranslogFormatVersionException e) {
      printer.printRefusal(mode, e);
      return fail(ExitCodes.UNRECOVERABLE, e.getMessage() + "; nothing was changed");
    }
    printer.print(preview);
    if (preview.cuts() == false) {
      out.println(
          "result    nothing to cut: the translog opens in "
              + ModeConverter.name(mode)
              + " as it is; nothing was changed");
      return ExitCodes.CLEAN;
    }
    if (yes == false) {
      out.println(
          "result    dry run: nothing was changed. To carry this plan out, after a backup:");
      out.println(
          "            spindle-translog truncate --mode "
              + ModeConverter.name(mode)
              + " --yes "
              + inspector.directory());
      return ExitCodes.RECOVERABLE;
    }

    Path target = backup != null ? backup : defaultBackup(inspector.directory());
    if (holdsFiles(target)) {
      return fail(
          ExitCodes.IO_ERROR,
          target + ": the backup directory must be new or empty; nothing was changed");
    }
    List<Path> saved = new ArrayList<>(preview.filesDeleted());
    saved.addAll(preview.filesReplaced());
    long bytes = 0;
    for (Path file : saved) {
      bytes += Files.size(file);
    }
    out.println(
        "backup    "
            + target.toAbsolutePath()
            + ": "
            + count(saved.size(), "file")
            + ", "
            + bytes
            + " bytes, every file the repair deletes or overwrites");
    try {
      inspector.repair(preview, target);
    } catch (IOException e) {
      return fail(
          ExitCodes.IO_ERROR,
          "the repair failed: "
              + e.getMessage()
              + "; the backup in "
              + target.toAbsolutePath()
              + " holds every file it was to delete or overwrite, see UNDO.txt there");
    }
    RecoveryPreview after = inspector.preview(RecoveryMode.STRICT);
    out.println(
        "result    repaired: the translog now opens in strict with "
            + count(after.report().operations(), "operation")
            + "; to undo, follow "
            + target.toAbsolutePath().resolve("UNDO.txt"));
    return ExitCodes.CLEAN;
  }

  private static Path defaultBackup(Path directory) {
    Path absolute = directory.toAbsolutePath().normalize();
    String name = absolute.getFileName() + ".backup-" + STAMP.format(Instant.now());
    Path parent = absolute.getParent() != null ? absolute.getParent() : absolute;
    Path candidate = parent.resolve(name);
    for (int i = 2; Files.exists(candidate); i++) {
      candidate = parent.resolve(name + "-" + i);
    }
    return candidate;
  }

  private static boolean holdsFiles(Path directory) throws IOException {
    if (Files.isDirectory(directory) == false) {
      return Files.exists(directory);
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
      return entries.iterator().hasNext();
    }
  }
}

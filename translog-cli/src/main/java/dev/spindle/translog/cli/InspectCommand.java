package dev.spindle.translog.cli;

import static dev.spindle.translog.cli.Describe.count;
import static dev.spindle.translog.cli.Describe.name;
import static dev.spindle.translog.cli.Describe.seqNos;
import static dev.spindle.translog.cli.Describe.vouches;

import dev.spindle.translog.inspect.CheckpointInfo;
import dev.spindle.translog.inspect.GenerationInfo;
import dev.spindle.translog.inspect.TranslogInspector;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import picocli.CommandLine.Command;

/**
 * {@code inspect DIR}: what the directory holds, file by file, read without judging: the live
 * checkpoint's two slots, each generation with its checkpoint, records and damage, the retention
 * state and the bytes on disk. {@code verify} judges.
 */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    description = {
      "Prints what a translog directory holds, file by file.",
      "",
      "Prints what a translog directory holds: its UUID and format version, the live checkpoint's"
          + " two slots and what each vouches for, every generation with its file size, sealed"
          + " checkpoint, records (count, seqNo range, where they end and why) and damage, the"
          + " retention state, and the bytes on disk. Reads every record. Changes nothing.",
      "Exit code 0 whenever the directory could be read, damaged or not: 'verify' judges it."
    },
    footer = {"", "Example:", "  spindle-translog inspect /var/lib/app/translog"})
final class InspectCommand extends DirectoryCommand {

  @Override
  int run(TranslogInspector inspector) throws IOException {
    PrintWriter out = out();
    Optional<CheckpointInfo> live = inspector.liveCheckpoint();
    List<GenerationInfo> generations = inspector.generations();
    printTranslog(out, inspector, live, generations);
    printLiveCheckpoint(out, inspector, live);
    printRetention(out, live, generations);
    out.println("generations");
    if (generations.isEmpty()) {
      out.println("  none");
    }
    for (GenerationInfo generation : generations) {
      printGeneration(out, inspector, generation);
    }
    printTemporaryFiles(out, inspector.temporaryFiles());
    return ExitCodes.CLEAN;
  }

  /** How many files of the translog there are, and their total size. */
  record DiskUsage(long files, long bytes) {

    static DiskUsage of(List<Path> files) throws IOException {
      long bytes = 0;
      for (Path file : files) {
        bytes += Files.size(file);
      }
      return new DiskUsage(files.size(), bytes);
    }
  }

  private static void printTranslog(
      PrintWriter out,
      TranslogInspector inspector,
      Optional<CheckpointInfo> live,
      List<GenerationInfo> generations)
      throws IOException {
    out.println("translog " + inspector.directory().toAbsolutePath());
    out.println(
        "  uuid             "
            + live.map(c -> c.translogUuid().toString()).orElse(headerUuids(generations)));
    out.println("  format           version " + inspector.formatVersion());
    DiskUsage disk = DiskUsage.of(inspector.files());
    out.println(
        "  on disk          " + disk.bytes() + " bytes in " + count(disk.files(), "translog file"));
  }

  private static void printLiveCheckpoint(
      PrintWriter out, TranslogInspector inspector, Optional<CheckpointInfo> live)
      throws IOException {
    List<CheckpointInfo> slots = inspector.liveCheckpointSlots();
    out.println("live checkpoint " + inspector.liveCheckpointFile());
    if (slots.isEmpty()) {
      out.println("  missing");
    }
    for (int slot = 0; slot < slots.size(); slot++) {
      CheckpointInfo checkpoint = slots.get(slot);
      String prefix = "  slot " + slot + " (offset " + checkpoint.fileOffset() + ")  ";
      if (checkpoint.isValid() == false) {
        out.println(prefix + "DAMAGED: " + checkpoint.damage().get().getMessage());
        continue;
      }
      boolean newest = live.isPresent() && live.get().fileOffset() == checkpoint.fileOffset();
      out.println(
          prefix
              + "counter "
              + checkpoint.counter()
              + (newest ? " (newest, used by recovery)" : "")
              + ": "
              + vouches(checkpoint)
              + ", oldest generation "
              + checkpoint.minGeneration()
              + ", seqNo high-water mark "
              + checkpoint.seqNoHighWater());
    }
  }

  private static void printRetention(
      PrintWriter out, Optional<CheckpointInfo> live, List<GenerationInfo> generations) {
    out.println("retention");
    if (live.isPresent()) {
      CheckpointInfo checkpoint = live.get();
      out.println(
          "  generations held "
              + checkpoint.minGeneration()
              + " to "
              + checkpoint.generation()
              + (checkpoint.minGeneration() > 1 ? " (older ones were trimmed)" : ""));
      List<Long> below = new ArrayList<>();
      for (GenerationInfo generation : generations) {
        if (generation.role() == GenerationInfo.Role.BELOW_OLDEST) {
          below.add(generation.generation());
        }
      }
      out.println(
          "  below the oldest "
              + (below.isEmpty()
                  ? "none"
                  : "generations "
                      + below
                      + ": left by a trim that a crash interrupted; the next trim deletes them"));
      out.println(
          "  seqNo high-water "
              + checkpoint.seqNoHighWater()
              + " as of the live checkpoint (recovery also counts the records it reads)");
    } else {
      out.println("  unknown: no valid live checkpoint");
    }
    out.println(
        "  retention locks and snapshots live in the memory of the process that has the translog"
            + " open; none is on disk");
  }

  private static void printTemporaryFiles(PrintWriter out, List<Path> temporary) {
    out.println(
        "temporary files  "
            + (temporary.isEmpty()
                ? "none"
                : temporary.stream().map(Describe::name).toList()
                    + ": left by interrupted writes; recovery ignores them"));
  }

  private static void printGeneration(
      PrintWriter out, TranslogInspector inspector, GenerationInfo generation) {
    out.println(
        "  generation " + generation.generation() + "  " + Describe.role(generation.role()));
    out.println(
        "    file        "
            + name(generation.file())
            + (generation.fileSize() < 0 ? " missing" : ", " + generation.fileSize() + " bytes"));
    if (generation.sealedCheckpoint().isPresent()) {
      CheckpointInfo sealed = generation.sealedCheckpoint().get();
      out.println(
          "    checkpoint  "
              + name(sealed.file())
              + (sealed.isValid()
                  ? ": " + vouches(sealed)
                  : " DAMAGED: " + sealed.damage().get().getMessage()));
    } else if (generation.role() == GenerationInfo.Role.CURRENT) {
      out.println(
          "    checkpoint  "
              + name(inspector.liveCheckpointFile())
              + " (live): vouches for "
              + generation.vouchedLength()
              + " bytes; records past them count when they prove themselves");
    }
    if (generation.fileSize() >= 0) {
      out.println(
          "    records     "
              + generation.records()
              + " verify, "
              + seqNos(generation.minSeqNo(), generation.maxSeqNo())
              + (generation.recordsPastVouched() > 0
                  ? ", " + generation.recordsPastVouched() + " of them past the checkpoint"
                  : "")
              + "; they end at offset "
              + generation.recordsEnd()
              + ": "
              + endReason(generation));
    }
    generation.damage().ifPresent(damage -> out.println("    DAMAGE      " + damage.getMessage()));
  }

  /** Why the records end, without the file and offset the line names already. */
  private static String endReason(GenerationInfo generation) {
    String where =
        "translog file " + generation.file() + " at offset " + generation.recordsEnd() + ": ";
    String reason = generation.endReason();
    return reason.startsWith(where) ? reason.substring(where.length()) : reason;
  }

  /** The UUIDs the generation headers name, when no live checkpoint does. */
  private static String headerUuids(List<GenerationInfo> generations) {
    List<UUID> uuids = new ArrayList<>();
    for (GenerationInfo generation : generations) {
      generation.headerUuid().filter(u -> uuids.contains(u) == false).ifPresent(uuids::add);
    }
    return "unknown (no valid live checkpoint); generation headers name " + uuids;
  }
}

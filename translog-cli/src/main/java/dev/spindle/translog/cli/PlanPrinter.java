package dev.spindle.translog.cli;

import static dev.spindle.translog.cli.Describe.count;
import static dev.spindle.translog.cli.Describe.name;
import static dev.spindle.translog.cli.Describe.seqNos;

import dev.spindle.translog.RecoveryMode;
import dev.spindle.translog.RecoveryReport;
import dev.spindle.translog.TranslogCorruptedException;
import dev.spindle.translog.TranslogFormatVersionException;
import dev.spindle.translog.inspect.CheckpointInfo;
import dev.spindle.translog.inspect.GenerationInfo;
import dev.spindle.translog.inspect.KeptGeneration;
import dev.spindle.translog.inspect.RecoveryPreview;
import dev.spindle.translog.inspect.TranslogInspector;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Prints a {@link RecoveryPreview} for {@code verify} and {@code truncate}: the verdict, what the
 * mode keeps, where it cuts and why, what it drops, and every file carrying it out would change.
 * Everything it says about keeping and cutting comes from the preview, the recovery planner's own
 * plan; the inspector's view of each generation only adds what the dropped bytes held.
 */
final class PlanPrinter {

  private final PrintWriter out;
  private final TranslogInspector inspector;

  PlanPrinter(PrintWriter out, TranslogInspector inspector) {
    this.out = out;
    this.inspector = inspector;
  }

  /** Prints the verdict of a mode that refuses the translog, and a mode that would not. */
  void printRefusal(RecoveryMode mode, IOException refusal) throws IOException {
    out.println("translog " + inspector.directory().toAbsolutePath());
    out.println(
        "verdict   UNRECOVERABLE in "
            + ModeConverter.name(mode)
            + ": opening the translog in this mode fails");
    out.println("refused   " + refusal.getMessage());
    if (refusal instanceof TranslogFormatVersionException) {
      out.println("hint      no mode of this build reads another format version");
      return;
    }
    if (mode != RecoveryMode.POINT_IN_TIME) {
      try {
        RecoveryPreview salvage = inspector.preview(RecoveryMode.POINT_IN_TIME);
        out.println(
            "hint      point-in-time would keep "
                + count(salvage.report().operations(), "operation")
                + " and cut the rest: see 'verify --mode point-in-time'");
      } catch (TranslogCorruptedException | TranslogFormatVersionException e) {
        out.println(
            "hint      no recovery mode recovers it: the files belong to another translog, or"
                + " contradict each other");
      }
    }
  }

  void print(RecoveryPreview preview) throws IOException {
    RecoveryReport report = preview.report();
    String mode = ModeConverter.name(preview.mode());
    out.println("translog " + inspector.directory().toAbsolutePath());
    if (report.created()) {
      out.println("verdict   CLEAN: the directory holds no translog yet; opening it creates one");
      printFiles(preview);
      return;
    }
    if (preview.cuts()) {
      out.println(
          "verdict   DAMAGED, recoverable in "
              + mode
              + ": recovery cuts the translog at the damage");
      out.println("damage    " + report.damage().get().getMessage());
    } else {
      out.println("verdict   CLEAN: opens in " + mode + " with nothing cut");
    }

    printKept(preview);
    if (preview.cuts()) {
      printDropped(preview);
    }
    printNotes(report);
    printFiles(preview);
    out.println(
        "after     appends go to generation "
            + report.openedGeneration()
            + "; the next assigned seqNo is "
            + (preview.seqNoHighWater() + 1));
  }

  /** What the mode keeps: the operations, and each kept generation up to where. */
  private void printKept(RecoveryPreview preview) {
    RecoveryReport report = preview.report();
    List<KeptGeneration> kept = preview.keptGenerations();
    long minSeqNo = -1;
    long maxSeqNo = -1;
    for (KeptGeneration generation : kept) {
      if (generation.operations() > 0) {
        minSeqNo = minSeqNo < 0 ? generation.minSeqNo() : Math.min(minSeqNo, generation.minSeqNo());
        maxSeqNo = Math.max(maxSeqNo, generation.maxSeqNo());
      }
    }
    out.println(
        "keeps     "
            + count(report.operations(), "operation")
            + ", "
            + seqNos(minSeqNo, maxSeqNo)
            + (kept.isEmpty()
                ? ", in no generation"
                : kept.size() == 1
                    ? ", in generation " + kept.get(0).generation()
                    : ", in generations "
                        + kept.get(0).generation()
                        + " to "
                        + kept.get(kept.size() - 1).generation()));
    for (KeptGeneration generation : kept) {
      out.println(
          String.format(
              Locale.ROOT,
              "  generation %d  %s bytes [%d, %d)  %s  %s%s",
              generation.generation(),
              name(generation.file()),
              inspector.headerLength(),
              generation.length(),
              count(generation.operations(), "operation"),
              seqNos(generation.minSeqNo(), generation.maxSeqNo()),
              generation.sealedByRecovery()
                  ? preview.cuts() && generation == kept.get(kept.size() - 1)
                      ? "  (sealed at the cut)"
                      : "  (sealed at its end)"
                  : ""));
    }
  }

  /** What else recovery finds: records past the checkpoint, a damaged slot, unused files. */
  private void printNotes(RecoveryReport report) throws IOException {
    if (report.operationsPastCheckpoint() > 0) {
      out.println(
          "note      "
              + count(report.operationsPastCheckpoint(), "operation")
              + " past the last checkpoint proved themselves: the translog was not closed (a"
              + " crash, or it is a copy of an open one); recovery keeps them");
    }
    for (CheckpointInfo slot : inspector.liveCheckpointSlots()) {
      slot.damage()
          .ifPresent(
              damage ->
                  out.println(
                      "note      one live checkpoint slot is not valid, recovery uses the other (a"
                          + " crash during a checkpoint write leaves this): "
                          + damage.getMessage()));
    }
    if (report.ignoredFiles().isEmpty() == false) {
      out.println(
          "note      files recovery ignores: "
              + report.ignoredFiles().stream().map(Describe::name).toList());
    }
  }

  /** What the cut gives up: the rest of the cut generation, and every generation after it. */
  private void printDropped(RecoveryPreview preview) throws IOException {
    List<KeptGeneration> kept = preview.keptGenerations();
    RecoveryReport report = preview.report();
    List<GenerationInfo> generations = inspector.generations();
    out.println("drops");
    if (kept.isEmpty() == false && kept.get(kept.size() - 1).sealedByRecovery()) {
      KeptGeneration last = kept.get(kept.size() - 1);
      Optional<GenerationInfo> info = find(generations, last.generation());
      long size = info.map(GenerationInfo::fileSize).orElse(-1L);
      out.println(
          String.format(
              Locale.ROOT,
              "  generation %d  %s bytes [%d, %d): never read again, the file is left as it is%s",
              last.generation(),
              name(last.file()),
              last.length(),
              size,
              info.map(this::vouched).orElse("")));
    }
    for (long generation : report.deletedGenerations().reversed()) {
      Optional<GenerationInfo> info = find(generations, generation);
      StringBuilder line = new StringBuilder("  generation " + generation + "  its files deleted");
      info.ifPresent(
          g -> {
            if (g.fileSize() >= 0) {
              line.append("; ")
                  .append(count(g.records(), "record"))
                  .append(" verify there, ")
                  .append(seqNos(g.minSeqNo(), g.maxSeqNo()));
            }
            line.append(vouched(g));
          });
      out.println(line);
    }
  }

  /** What a checkpoint said the generation held, if one did. */
  private String vouched(GenerationInfo generation) {
    if (generation.sealedCheckpoint().isPresent()
        && generation.sealedCheckpoint().get().isValid()) {
      CheckpointInfo sealed = generation.sealedCheckpoint().get();
      return "; its sealed checkpoint vouched for "
          + count(sealed.operations(), "operation")
          + ", "
          + seqNos(sealed.minSeqNo(), sealed.maxSeqNo())
          + ", in "
          + sealed.length()
          + " bytes";
    }
    if (generation.role() == GenerationInfo.Role.CURRENT && generation.vouchedLength() >= 0) {
      return "; the live checkpoint vouched for " + generation.vouchedLength() + " bytes";
    }
    return "";
  }

  private static Optional<GenerationInfo> find(List<GenerationInfo> generations, long generation) {
    return generations.stream().filter(g -> g.generation() == generation).findFirst();
  }

  private void printFiles(RecoveryPreview preview) {
    out.println("changes   carrying this plan out (what opening in this mode does) would");
    printFiles("delete ", preview.filesDeleted());
    printFiles("replace", preview.filesReplaced());
    printFiles("create ", preview.filesCreated());
  }

  private void printFiles(String verb, List<Path> files) {
    for (Path file : files) {
      out.println("  " + verb + "  " + name(file));
    }
  }
}

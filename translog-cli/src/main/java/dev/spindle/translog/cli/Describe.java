package dev.spindle.translog.cli;

import dev.spindle.translog.inspect.CheckpointInfo;
import dev.spindle.translog.inspect.GenerationInfo;
import java.nio.file.Path;
import java.util.Locale;

/** Phrases the commands print the same way. */
final class Describe {

  private Describe() {}

  /** {@code seqNo [a, b]}, or {@code no seqNo} when there is none. */
  static String seqNos(long min, long max) {
    return min < 0 ? "no seqNo" : "seqNo [" + min + ", " + max + "]";
  }

  /** {@code 1 operation}, {@code 3 operations}. */
  static String count(long count, String noun) {
    return count + " " + noun + (count == 1 ? "" : "s");
  }

  /** The file name alone. */
  static String name(Path file) {
    return file.getFileName().toString();
  }

  static String role(GenerationInfo.Role role) {
    return switch (role) {
      case BELOW_OLDEST -> "below the oldest generation: left by an interrupted trim, ignored";
      case SEALED -> "sealed";
      case CURRENT -> "current: the one being written when the translog was last open";
      case NEXT -> "next: prepared ahead, must hold no record";
      case BEYOND -> "beyond the next generation: should not exist";
      case UNKNOWN -> "place unknown: no valid live checkpoint";
    };
  }

  /** What a valid checkpoint vouches for, in one phrase. */
  static String vouches(CheckpointInfo checkpoint) {
    return String.format(
        Locale.ROOT,
        "generation %d, %d bytes, %s, %s",
        checkpoint.generation(),
        checkpoint.length(),
        count(checkpoint.operations(), "operation"),
        seqNos(checkpoint.minSeqNo(), checkpoint.maxSeqNo()));
  }
}

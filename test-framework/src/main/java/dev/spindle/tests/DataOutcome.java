package dev.spindle.tests;

import java.util.Random;

/**
 * What a power loss does to one file's unsynced data: the policy behind the per-block choices of
 * {@link FileNode#crashImage}. One is drawn per file and power loss.
 */
enum DataOutcome {
  /** Nothing unsynced reached the disk. */
  DROPPED("unsynced data dropped"),
  /** Everything reached the disk, as if the power failed right after a writeback. */
  KEPT("unsynced data kept"),
  /** Each block is either old or newest: writes reordered between forces. */
  REORDERED("each block old or newest"),
  /** Each block holds any of its versions: torn writes and reordering. */
  TORN("each block any version");

  final String description;

  DataOutcome(String description) {
    this.description = description;
  }

  static DataOutcome pick(Random random) {
    int dice = random.nextInt(20);
    if (dice < 4) {
      return DROPPED;
    } else if (dice < 7) {
      return KEPT;
    } else if (dice < 13) {
      return REORDERED;
    }
    return TORN;
  }

  /** How many of a block's {@code versions} unsynced events reach the disk. */
  int eventsToApply(Random random, int versions) {
    return switch (this) {
      case DROPPED -> 0;
      case KEPT -> versions;
      case REORDERED -> random.nextBoolean() ? versions : 0;
      case TORN -> random.nextInt(versions + 1);
    };
  }

  /** Which of {@code candidates} lengths (durable first, page cache last) the file ends with. */
  int lengthIndex(Random random, int candidates) {
    return switch (this) {
      case DROPPED -> 0;
      case KEPT -> candidates - 1;
      case REORDERED, TORN -> random.nextInt(candidates);
    };
  }
}

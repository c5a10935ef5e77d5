package dev.spindle.translog;

import java.io.IOException;
import java.util.function.Supplier;

/**
 * One round of group commit: notes how far the generation being written reaches, writes what is
 * still in memory and forces the file, once ({@link TranslogWriter#syncRound}, which holds the
 * locks). That single data fsync is what makes an operation durable: its record proves itself after
 * a crash (see {@link RecordFormat}), so no checkpoint is written on this path. The checkpoint the
 * round would vouch for is handed to the {@link Checkpointer}, which has one written in the
 * background now and then: this class schedules that hint when it is due.
 *
 * <p>Thread-safe; {@link GroupCommit} runs one round at a time.
 */
final class SyncRound {

  private final TranslogWriter writer;
  private final BackgroundWork background;

  /** How far group commit has published the log durable. */
  private final Supplier<DurablePoint> durable;

  SyncRound(TranslogWriter writer, BackgroundWork background, Supplier<DurablePoint> durable) {
    this.writer = writer;
    this.background = background;
    this.durable = durable;
  }

  /** Runs the round; returns how far the log is durable now. */
  DurablePoint run() throws IOException {
    DurablePoint reached = writer.syncRound(durable);
    if (writer.hintDue()) {
      background.execute(writer::writeHint);
    }
    return reached;
  }
}

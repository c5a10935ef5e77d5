package dev.spindle.tests;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The correct checkpointed mini-log (temporary file, force, atomic rename, directory fsync) passes.
 */
public class TestCheckpointedMiniLogPassesWriteAheadLogSuite extends BaseWriteAheadLogTestCase {

  @Override
  protected LogUnderTest open(Path directory) throws IOException {
    return MiniLog.open(directory, MiniLog.Flaw.NONE, true);
  }
}

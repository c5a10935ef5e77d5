package dev.spindle.tests;

import java.io.IOException;
import java.nio.file.Path;

/** The correct mini-log passes the whole suite: the simulator does not cry wolf. */
public class TestMiniLogPassesWriteAheadLogSuite extends BaseWriteAheadLogTestCase {

  @Override
  protected LogUnderTest open(Path directory) throws IOException {
    return MiniLog.open(directory, MiniLog.Flaw.NONE, false);
  }
}

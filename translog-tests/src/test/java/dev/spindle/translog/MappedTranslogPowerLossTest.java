package dev.spindle.translog;

import java.nio.file.Path;

/**
 * The power-loss suite with every open storing through memory-mapped segments, small enough that
 * records cross segment boundaries and each generation maps several: the simulation reads the
 * mapped pages back at each force and decides at each power loss which of the unforced ones reached
 * the disk.
 */
public class MappedTranslogPowerLossTest extends TranslogPowerLossTest {

  @Override
  protected TranslogConfig.Builder configure(Path directory) {
    int segments = random().nextInt(3);
    return super.configure(directory)
        .mappedSegmentSize(TranslogConfig.MIN_MAPPED_SEGMENT_SIZE << segments);
  }
}

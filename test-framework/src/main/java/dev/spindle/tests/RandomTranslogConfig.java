package dev.spindle.translog;

import java.nio.file.Path;
import java.util.Random;

/**
 * Randomly configured translogs for tests: small buffers and roll sizes often, so that records span
 * buffers and generations roll within a test, and memory-mapped segments a third of the time. Every
 * choice comes from the given random.
 */
final class RandomTranslogConfig {

  private RandomTranslogConfig() {}

  static TranslogConfig.Builder builder(Random random, Path directory) {
    TranslogConfig.Builder builder = TranslogConfig.builder(directory);
    switch (random.nextInt(4)) {
      case 0 -> builder.bufferSize(TranslogConfig.MIN_BUFFER_SIZE);
      case 1 -> builder.bufferSize(TranslogConfig.MIN_BUFFER_SIZE + random.nextInt(8192));
      case 2 -> builder.bufferSize(64 << 10);
      default -> {}
    }
    switch (random.nextInt(6)) {
      case 0 -> builder.mappedSegmentSize(TranslogConfig.MIN_MAPPED_SEGMENT_SIZE);
      case 1 -> builder.mappedSegmentSize(TranslogConfig.MIN_MAPPED_SEGMENT_SIZE * 3 + 4096);
      default -> {}
    }
    switch (random.nextInt(3)) {
      case 0 -> builder.rollSize(TranslogHeader.SIZE + 1 + random.nextInt(4096));
      case 1 -> builder.rollSize(8192 + random.nextInt(64 << 10));
      default -> {}
    }
    return builder;
  }

  static TranslogConfig create(Random random, Path directory) {
    return builder(random, directory).build();
  }

  /** A payload of random length, mostly small, sometimes larger than any buffer. */
  static byte[] payload(Random random) {
    int length =
        switch (random.nextInt(10)) {
          case 0 -> 0;
          case 1 -> 2048 + random.nextInt(70_000);
          default -> random.nextInt(200);
        };
    byte[] payload = new byte[length];
    random.nextBytes(payload);
    return payload;
  }
}

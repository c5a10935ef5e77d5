package dev.spindle.tests;

import dev.spindle.translog.TranslogConfig;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.Executor;

/**
 * Randomly configured {@link dev.spindle.translog.Translog}s for tests, every choice drawn from the
 * given {@link Random}:
 *
 * <ul>
 *   <li>small buffers often, so that records span buffers;
 *   <li>small roll sizes, so that generations roll within a test (each generation file is written
 *       full of zeros up to the roll size before use, so the default would make tests slow);
 *   <li>a limit on buffered bytes as low as the buffer size now and then, so that appends wait;
 *   <li>an executor that runs the background work on the submitting thread a quarter of the time,
 *       which makes rolls, preparations and the rounds of {@code syncAsync} synchronous.
 * </ul>
 *
 * Durability and recovery mode keep their defaults: tests choose those.
 *
 * <pre>{@code
 * try (Translog translog = Translog.open(RandomTranslogConfig.create(random(), createTempDir()))) {
 *   ...
 * }
 * }</pre>
 */
public final class RandomTranslogConfig {

  /** An executor that runs each task on the thread that submits it. */
  private static final Executor CALLER_RUNS = Runnable::run;

  private RandomTranslogConfig() {}

  /**
   * A builder with random settings, for a translog in {@code directory}; set more on it before
   * building.
   *
   * @param random the source of every choice
   * @param directory the translog's directory
   * @return the builder
   */
  public static TranslogConfig.Builder builder(Random random, Path directory) {
    TranslogConfig.Builder builder = TranslogConfig.builder(directory);
    int bufferSize =
        switch (random.nextInt(4)) {
          case 0 -> TranslogConfig.MIN_BUFFER_SIZE;
          case 1 -> TranslogConfig.MIN_BUFFER_SIZE + random.nextInt(8192);
          case 2 -> 64 << 10;
          default -> 256 << 10;
        };
    builder.bufferSize(bufferSize);
    switch (random.nextInt(4)) {
      case 0 -> builder.rollSize(49 + random.nextInt(4096));
      case 1, 2 -> builder.rollSize(8192 + random.nextInt(64 << 10));
      default -> builder.rollSize((256 << 10) + random.nextInt(768 << 10));
    }
    if (random.nextInt(5) == 0) {
      builder.maxBufferedBytes(bufferSize + random.nextInt(2 * bufferSize));
    }
    if (random.nextInt(4) == 0) {
      builder.executor(CALLER_RUNS);
    }
    return builder;
  }

  /**
   * A random configuration for a translog in {@code directory}.
   *
   * @param random the source of every choice
   * @param directory the translog's directory
   * @return the configuration
   */
  public static TranslogConfig create(Random random, Path directory) {
    return builder(random, directory).build();
  }

  /**
   * A payload of random length: mostly small, sometimes empty, sometimes larger than any buffer.
   *
   * @param random the source of the length and the bytes
   * @return the payload
   */
  public static byte[] payload(Random random) {
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

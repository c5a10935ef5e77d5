package dev.spindle.bench.translog;

import dev.spindle.bench.measure.TimedLoad;
import java.io.IOException;
import java.util.Random;

/**
 * Threads that each append an operation and wait until it is durable (or do not wait), again and
 * again, for a fixed time: the load every log of the translog benchmark runs, in this JVM or in a
 * peer's. Each call is timed, the acknowledgement latency its caller would see.
 */
final class DurableLoad {

  static final int MAX_THREADS = 64;
  private static final long PAYLOAD_SEED = 0x7_1A_9L;

  private DurableLoad() {}

  /** The payload of {@code size} bytes that every log appends: random, the same in every JVM. */
  static byte[] payload(int size) {
    byte[] payload = new byte[size];
    new Random(PAYLOAD_SEED + size).nextBytes(payload);
    return payload;
  }

  /** Runs {@code threads} threads of {@code pool} appending to {@code log} for {@code millis}. */
  static LogTrials.Load run(
      TimedLoad pool, DurableAppender log, boolean durable, int threads, int size, long millis)
      throws IOException {
    byte[] payload = payload(size);
    long syncs = log.syncs();
    TimedLoad.Result load =
        pool.run(
            threads,
            millis,
            1,
            true,
            (thread, count) ->
                () -> {
                  if (durable) {
                    log.appendDurably(payload);
                  } else {
                    log.append(payload);
                  }
                  return 0;
                });
    return new LogTrials.Load(
        load.rate(),
        load.operations(),
        log.syncs() - syncs,
        load.latencies().percentile(0.50),
        load.latencies().percentile(0.99));
  }
}

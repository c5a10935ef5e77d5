package dev.spindle.translog;

import dev.spindle.tests.BaseWriteAheadLogTestCase;
import dev.spindle.tests.RandomTranslogConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

/**
 * The translog through test-framework's power-loss suite: power cuts at random points (inside
 * appends, syncs, rolls and recovery), torn and reordered unsynced writes, injected I/O faults.
 * Each open draws a random configuration, so a history mixes buffer sizes, roll sizes, executors,
 * memory limits, durability modes and the three ways to wait for durability. The suite expects
 * every record it saw to stay, so trims are covered by {@link TranslogFaultInjectionTest} instead.
 */
public class TranslogPowerLossTest extends BaseWriteAheadLogTestCase {

  /**
   * The translog lives two directories below the suite's, which the first open creates: what it
   * creates must survive the power losses that follow as the files do.
   */
  @Override
  protected LogUnderTest open(Path directory) throws IOException {
    TranslogConfig.Builder builder =
        RandomTranslogConfig.builder(random(), directory.resolve("data").resolve("translog"));
    if (random().nextInt(4) == 0) {
      builder.durability(Durability.ASYNC).syncInterval(Duration.ofMillis(1 + random().nextInt(5)));
    }
    Translog translog = Translog.open(builder.build());
    return new TranslogUnderTest(translog, random().nextLong());
  }

  /** Tokens are generation and offset packed into a long, so they order as the log does. */
  private static final class TranslogUnderTest implements LogUnderTest {
    private final Translog translog;
    private final long seed;
    private final Map<Long, Location> locations = new ConcurrentHashMap<>();

    TranslogUnderTest(Translog translog, long seed) {
      this.translog = translog;
      this.seed = seed;
    }

    @Override
    public long append(byte[] record) throws IOException {
      Location location = translog.append(record);
      long token = (location.generation() << 40) | location.offset();
      locations.put(token, location);
      return token;
    }

    @Override
    public void sync(long token) throws IOException {
      Location location = locations.get(token);
      switch ((int) Math.floorMod(token ^ seed, 4)) {
        case 0 -> translog.sync();
        case 1 -> {
          try {
            translog.syncAsync(location).get();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
          } catch (ExecutionException e) {
            throw new IOException("syncAsync failed", e.getCause());
          }
        }
        default -> translog.ensureSynced(location);
      }
    }

    @Override
    public List<byte[]> readAll() throws IOException {
      List<byte[]> records = new ArrayList<>();
      try (TranslogSnapshot snapshot = translog.newSnapshot(0)) {
        for (Operation operation = snapshot.next();
            operation != null;
            operation = snapshot.next()) {
          records.add(operation.payload());
        }
      }
      return records;
    }

    @Override
    public void close() throws IOException {
      translog.close();
    }
  }
}

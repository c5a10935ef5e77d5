package dev.spindle.bench.store;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;

/**
 * The read workloads of the directory benchmarks, in whatever JVM runs them ({@link ReadService}).
 */
public interface Reads extends Closeable {

  /** Id lookups per second through {@code kind}, summed over {@code threads}. */
  double lookups(DirectoryKind kind, int threads, long millis) throws IOException;

  /** The directory's statistics, or {@code -} if it keeps none. */
  String stats(DirectoryKind kind) throws IOException;

  /** Runs {@code workload} through {@code kind} for {@code millis}: items per second. */
  double rate(Workload workload, DirectoryKind kind, long millis) throws IOException;

  /** A starved trial: unmeasured, then measured, with the storage cost of one operation. */
  Outcome starved(Workload workload, DirectoryKind kind, long warmupMillis, long millis)
      throws IOException;

  /** What the device can do for reads of {@code blockBytes} by {@code method} from threads. */
  DeviceProbe.Result probe(DeviceProbe.Method method, int threads, int blockBytes, long millis)
      throws IOException;

  /** Lines for the report's details. */
  List<String> notes() throws IOException;
}

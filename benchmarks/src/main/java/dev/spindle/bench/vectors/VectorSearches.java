package dev.spindle.bench.vectors;

import dev.spindle.bench.measure.IoCost;
import dev.spindle.bench.store.DeviceProbe;
import dev.spindle.bench.store.DirectoryKind;
import dev.spindle.bench.store.Outcome;
import java.io.Closeable;
import java.io.IOException;

/** The vector workloads, in whatever JVM runs them ({@link VectorService}). */
public interface VectorSearches extends Closeable {

  /**
   * What a timed run of searches achieved: queries per second, the storage cost of one query, and
   * how many queries found other hits than the reference (none, unless a directory is broken).
   */
  record Searched(double rate, IoCost io, long differing) {}

  /** Every query once: the mean recall@10 against the exact hits, and queries that differed. */
  record Checked(double recall, long differing) {}

  /**
   * Searches {@code index} through {@code contender} from two threads, {@code warmupMillis}
   * unmeasured, then {@code millis} measured.
   */
  Searched search(VectorIndex index, Contender contender, long warmupMillis, long millis)
      throws IOException;

  /** Every query of {@code index} once, in order, through {@code contender}. */
  Checked check(VectorIndex index, Contender contender) throws IOException;

  /** Positional reads of {@code blockBytes} of {@code index}'s files from {@code threads}. */
  DeviceProbe.Result probe(VectorIndex index, int threads, int blockBytes, long millis)
      throws IOException;

  /**
   * Writes the quantized index of the first {@code count} vectors through {@code kind}, merged to
   * one segment, then deletes it: vectors per second, and what the whole build read.
   */
  Outcome build(DirectoryKind kind, int count, double ramBufferMB) throws IOException;
}

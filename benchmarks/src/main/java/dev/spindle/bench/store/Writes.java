package dev.spindle.bench.store;

import dev.spindle.bench.corpus.Corpus;
import java.io.Closeable;
import java.io.IOException;

/**
 * The write workloads of the directory benchmarks, in a trial JVM ({@link WriteService}): writes
 * with external ids, each after its id's version lookup on a near-real-time reader, which is
 * reopened every {@value #REFRESH_EVERY} writes.
 */
public interface Writes extends Closeable {

  int REFRESH_EVERY = 1_000;

  /** Applies the drawn updates to a fresh copy of the base index through {@code kind}: docs/s. */
  double indexing(DirectoryKind kind) throws IOException;

  /** Writes geonames rows for {@code warmupMillis} unmeasured, then {@code millis} measured. */
  Outcome updates(DirectoryKind kind, long warmupMillis, long millis) throws IOException;

  /** One drawn write: an external id, whether the base index has it, the new version's text. */
  record Update(String id, boolean exists, Corpus.Line line) {}
}

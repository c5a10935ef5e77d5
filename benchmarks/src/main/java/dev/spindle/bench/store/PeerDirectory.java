package dev.spindle.bench.store;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;

/**
 * Opens a peer's own directory over an index folder, the way the peer's engine opens the directory
 * of a shard. Implemented, with a public no-argument constructor, by an adapter compiled against
 * the peer under {@code benchmarks/peers/}, and loaded by name in the peer's JVM ({@link
 * DirectoryKind#open}); never available in the benchmark's own JVM.
 */
public interface PeerDirectory {

  /** Opens the directory over {@code path}; the caller closes it. */
  Directory open(Path path) throws IOException;
}

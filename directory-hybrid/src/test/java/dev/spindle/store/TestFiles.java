package dev.spindle.store;

import java.io.IOException;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterIndexInput;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;

/** Files and inputs for this package's tests. */
final class TestFiles {

  private TestFiles() {}

  /**
   * Writes a file of {@code length} bytes whose byte {@code i} is {@code (byte) i}, so that a read
   * at any offset, through any clone or slice, can be checked.
   */
  static void writeFile(Directory dir, String name, int length) throws IOException {
    try (IndexOutput out = dir.createOutput(name, IOContext.DEFAULT)) {
      for (int i = 0; i < length; i++) {
        out.writeByte((byte) i);
      }
    }
  }

  /** Whether {@code in} reads a mapping: mapped inputs, clones and slices are Lucene's own. */
  static boolean isMapped(IndexInput in) {
    return FilterIndexInput.unwrap(in).getClass().getName().contains("MemorySegmentIndexInput");
  }

  /** Whether {@code in} is wrapped to see its prefetches: a pool's or a clipping wrapper. */
  static boolean seesPrefetches(IndexInput in) {
    return in instanceof PrefetchInput;
  }
}

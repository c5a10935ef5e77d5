package dev.spindle.store;

import org.apache.lucene.store.IOContext;

/**
 * Names the file inside a compound file that a slice stands for. {@link MappedInput} adds it to the
 * context of a slice, because the read-advice function of {@link
 * org.apache.lucene.store.MMapDirectory} only ever sees the name of the mapped file, {@code
 * _0.cfs}, and {@link HybridDirectory} advises the slice as the file it holds.
 *
 * @param fileName the inner file's name, e.g. {@code _0.fdt}
 */
record InnerFileHint(String fileName) implements IOContext.FileOpenHint {

  /** The name to route {@code name} by: the inner file's, if {@code context} carries one. */
  static String routedName(String name, IOContext context) {
    for (IOContext.FileOpenHint hint : context.hints()) {
      if (hint instanceof InnerFileHint inner) {
        return inner.fileName();
      }
    }
    return name;
  }
}

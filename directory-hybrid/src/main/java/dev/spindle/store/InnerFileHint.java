package dev.spindle.store;

import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.store.IOContext;

/**
 * Names the file inside a compound file that a slice stands for. {@link MasterInput} adds it to the
 * context of a slice, because the read-advice function of {@link
 * org.apache.lucene.store.MMapDirectory} only ever sees the name of the mapped file, {@code
 * _0.cfs}, and {@link HybridDirectory} advises the slice as the file it holds.
 *
 * @param fileName the inner file's name, e.g. {@code _0.fdt}
 */
record InnerFileHint(String fileName) implements IOContext.FileOpenHint {

  /**
   * Returns {@code context} with this hint added, in place of an inner-file hint it already has.
   *
   * <p>Built on {@link IOContext#withHints}, which every Lucene release from 10.3 has, rather than
   * on {@code IOContext.union}, which Lucene 10.6 added: on 10.3 to 10.5 a merge or flush context
   * keeps no hints ({@code withHints} returns it unchanged), which costs nothing here, because
   * merges and flushes are advised {@code SEQUENTIAL} whatever file they read.
   */
  IOContext addTo(IOContext context) {
    List<IOContext.FileOpenHint> hints = new ArrayList<>(context.hints().size() + 1);
    for (IOContext.FileOpenHint hint : context.hints()) {
      if (hint instanceof InnerFileHint == false) {
        hints.add(hint);
      }
    }
    hints.add(this);
    return context.withHints(hints.toArray(IOContext.FileOpenHint[]::new));
  }

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

package dev.spindle.store;

import java.io.IOException;
import java.util.Objects;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;

/**
 * A clone or slice that codecs read, wrapped only to see its {@link #prefetch} calls: clips each to
 * the file's prefetch window, then hands it to the file's {@link PrefetchTarget}, which reads it on
 * a pool thread unless its pages are resident, or, with no pool, passes it to Lucene's input, whose
 * prefetch is {@code madvise(MADV_WILLNEED)}. Every read goes straight to Lucene's input.
 *
 * <p>The window is the most of a prefetch that is read. For per-document data (stored fields, term
 * vectors), whose codec prefetches the whole compressed chunk that holds a document, it decides how
 * much of the chunk a prefetch reads; for every other file it is unbounded.
 *
 * <p>{@link DirectBlockInput} is the one kind of it that also serves reads.
 *
 * <p>Its clones and slices are wrapped alike, and keep track of where they lie in the file, except
 * slices for a merge or a flush, which do not prefetch. Not thread-safe, as any {@link IndexInput}.
 */
class PrefetchInput extends ForwardingInput {

  /** The file's target, or null to leave prefetches to Lucene's input. */
  final PrefetchTarget target;

  /** Where this input's first byte lies in the file. */
  final long fileOffset;

  final long window;

  PrefetchInput(IndexInput in, PrefetchTarget target, long fileOffset, long window) {
    super(in.toString(), in);
    this.target = target;
    this.fileOffset = fileOffset;
    this.window = window;
  }

  @Override
  public void prefetch(long offset, long length) throws IOException {
    Objects.checkFromIndexSize(offset, length, length());
    long clipped = Math.min(length, window);
    if (target == null) {
      in.prefetch(offset, clipped);
    } else {
      target.prefetch(in, offset, fileOffset + offset, clipped);
    }
  }

  /** Wraps a clone or slice of this input's Lucene input, which lies at {@code fileOffset}. */
  IndexInput wrap(IndexInput input, long fileOffset) {
    return new PrefetchInput(input, target, fileOffset, window);
  }

  @Override
  public IndexInput clone() {
    return wrap(in.clone(), fileOffset);
  }

  @Override
  public IndexInput slice(String sliceDescription, long offset, long length) throws IOException {
    return wrap(in.slice(sliceDescription, offset, length), fileOffset + offset);
  }

  @Override
  public IndexInput slice(String sliceDescription, long offset, long length, IOContext context)
      throws IOException {
    IndexInput slice = in.slice(sliceDescription, offset, length, context);
    return FileRouting.isStreamed(context) ? slice : wrap(slice, fileOffset + offset);
  }
}

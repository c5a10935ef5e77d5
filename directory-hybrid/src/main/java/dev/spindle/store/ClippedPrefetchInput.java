package dev.spindle.store;

import java.io.IOException;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;

/**
 * A clone or slice of a mapped file of per-document data (stored fields, term vectors) whose {@link
 * #prefetch} asks the kernel for at most the first {@link #WINDOW} bytes of what the codec asked
 * for; every other call goes straight to the mapped input.
 *
 * <p>Lucene's stored fields prefetch a document by prefetching the whole compressed chunk that
 * holds it: with the default codec tens of KiB, of which a read touches the chunk's header and
 * dictionary, at its start, and the one sub-block that holds the document. The window covers the
 * start, so the reads that a batch of prefetches overlaps are the ones every document needs; the
 * sub-block then faults on its own, one page or two, where the whole chunk would have cost its
 * every page in storage reads and in page cache.
 *
 * <p>The prefetch goes to the same mapped input every time, so Lucene's own economy stays: a mapped
 * input checks whether the pages are cached before it asks for them, and after a run of cached
 * prefetches checks only now and then.
 *
 * <p>Not thread-safe, as any {@link IndexInput}. Its clones and slices clip too, except slices for
 * a merge or a flush, which do not prefetch.
 */
final class ClippedPrefetchInput extends ForwardingInput {

  /**
   * The most a prefetch asks for: 8 KiB. Lucene's default stored fields start a chunk with its
   * header, the lengths of its sub-blocks and its compressed dictionary, a few KiB that every read
   * of the chunk needs, wherever they start in their page. The bytes and device reads per document
   * that it saves against the whole chunk are in the get-and-search benchmark's report.
   */
  static final long WINDOW = 8 << 10;

  ClippedPrefetchInput(IndexInput in) {
    super(in.toString(), in);
  }

  @Override
  public void prefetch(long offset, long length) throws IOException {
    in.prefetch(offset, Math.min(length, WINDOW));
  }

  @Override
  public IndexInput clone() {
    return new ClippedPrefetchInput(in.clone());
  }

  @Override
  public IndexInput slice(String sliceDescription, long offset, long length) throws IOException {
    return new ClippedPrefetchInput(in.slice(sliceDescription, offset, length));
  }

  @Override
  public IndexInput slice(String sliceDescription, long offset, long length, IOContext context)
      throws IOException {
    IndexInput slice = in.slice(sliceDescription, offset, length, context);
    return FileRouting.isStreamed(context) ? slice : new ClippedPrefetchInput(slice);
  }
}

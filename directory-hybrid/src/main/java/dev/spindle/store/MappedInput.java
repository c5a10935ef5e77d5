package dev.spindle.store;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;

/**
 * The master input of a memory-mapped file, wrapped so that its {@link MappedInputs} know when it
 * is closed: closing it releases the mapping, with its clones and slices, as with any Lucene input,
 * and takes it off the counts of open mapped inputs. Closing it twice, even from two threads at
 * once, releases and counts it once.
 *
 * <p>Its clones and slices are what codecs read on the hot path: Lucene's mapped inputs themselves,
 * unwrapped, except those of per-document data, whose prefetches are clipped ({@link
 * ClippedPrefetchInput}). A slice opened with an {@link IOContext} is a file inside a compound
 * file: it is advised, and read, as the file it stands for ({@link InnerFileHint}).
 *
 * <p>Otherwise not thread-safe, as any {@link IndexInput}.
 */
final class MappedInput extends ForwardingInput {

  private final MappedInputs owner;
  private final long mappedLength;
  private final UnaryOperator<IndexInput> readPath;
  private final AtomicBoolean closed = new AtomicBoolean();

  /**
   * @param readPath wraps the clones of this input, and its slices without a context, for how they
   *     are read ({@link MappedInputs#readPath}); this master is not wrapped, it is not read on the
   *     hot path
   */
  MappedInput(MappedInputs owner, IndexInput mapped, UnaryOperator<IndexInput> readPath) {
    super(mapped.toString(), mapped);
    this.owner = owner;
    this.mappedLength = mapped.length();
    this.readPath = readPath;
  }

  long mappedLength() {
    return mappedLength;
  }

  @Override
  public void close() throws IOException {
    if (closed.compareAndSet(false, true)) {
      try {
        in.close();
      } finally {
        owner.closed(this);
      }
    }
  }

  @Override
  public IndexInput clone() {
    return readPath.apply(in.clone());
  }

  @Override
  public IndexInput slice(String sliceDescription, long offset, long length) throws IOException {
    return readPath.apply(in.slice(sliceDescription, offset, length));
  }

  /**
   * A slice opened with a context is a file inside a compound file ({@code Lucene90CompoundReader}
   * passes the inner file's name as the description): it is advised as that file, not as the
   * compound file.
   */
  @Override
  public IndexInput slice(String sliceDescription, long offset, long length, IOContext context)
      throws IOException {
    IOContext inner = new InnerFileHint(sliceDescription).addTo(context);
    IndexInput slice = in.slice(sliceDescription, offset, length, inner);
    return owner.readPath(sliceDescription, inner).apply(slice);
  }
}

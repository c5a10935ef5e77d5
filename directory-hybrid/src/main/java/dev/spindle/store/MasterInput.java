package dev.spindle.store;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;

/**
 * The master input of an open file, wrapped so that what depends on its life ends with it: closing
 * it closes Lucene's input (releasing a mapping, with its clones and slices), the file's {@link
 * PrefetchFile}, and calls the owner back, which counts open mapped inputs. Closing it twice, even
 * from two threads at once, does all this once.
 *
 * <p>Its clones and slices are what codecs read on the hot path; {@link ReadPaths} decides whether
 * they are Lucene's inputs themselves or wrapped to see their prefetches. A slice opened with an
 * {@link IOContext} is a file inside a compound file: it is advised, and read, as the file it
 * stands for ({@link InnerFileHint}). This master is not wrapped in turn: codecs read it only while
 * a segment opens.
 *
 * <p>Otherwise not thread-safe, as any {@link IndexInput}.
 */
final class MasterInput extends ForwardingInput {

  /** Called once, when the master input is closed. */
  interface OnClose {
    OnClose NOTHING = input -> {};

    void closed(MasterInput input);
  }

  private final ReadPaths readPaths;
  private final ReadPaths.ReadPath readPath;
  private final PrefetchFile prefetchFile;
  private final OnClose onClose;
  private final long openLength;
  private final AtomicBoolean closed = new AtomicBoolean();

  /**
   * @param readPath how this file's own clones and slices are read
   * @param prefetchFile the file as the prefetch pool reads it, or null
   */
  MasterInput(
      IndexInput in,
      ReadPaths readPaths,
      ReadPaths.ReadPath readPath,
      PrefetchFile prefetchFile,
      OnClose onClose) {
    super(in.toString(), in);
    this.readPaths = readPaths;
    this.readPath = readPath;
    this.prefetchFile = prefetchFile;
    this.onClose = onClose;
    this.openLength = in.length();
  }

  /** The file's length when it was opened. */
  long openLength() {
    return openLength;
  }

  @Override
  public void close() throws IOException {
    if (closed.compareAndSet(false, true)) {
      try {
        if (prefetchFile != null) {
          prefetchFile.close();
        }
      } finally {
        try {
          in.close();
        } finally {
          onClose.closed(this);
        }
      }
    }
  }

  @Override
  public IndexInput clone() {
    return readPath.wrap(in.clone(), 0);
  }

  @Override
  public IndexInput slice(String sliceDescription, long offset, long length) throws IOException {
    return readPath.wrap(in.slice(sliceDescription, offset, length), offset);
  }

  /**
   * A slice opened with a context is a file inside a compound file ({@code Lucene90CompoundReader}
   * passes the inner file's name as the description): it is advised and read as that file, not as
   * the compound file.
   */
  @Override
  public IndexInput slice(String sliceDescription, long offset, long length, IOContext context)
      throws IOException {
    IOContext inner = new InnerFileHint(sliceDescription).addTo(context);
    IndexInput slice = in.slice(sliceDescription, offset, length, inner);
    return readPaths.of(sliceDescription, inner, prefetchFile).wrap(slice, offset);
  }
}

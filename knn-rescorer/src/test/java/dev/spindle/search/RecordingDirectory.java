package dev.spindle.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.util.IOSupplier;

/**
 * A directory that records, while {@link #record} runs, every {@link IndexInput#prefetch} and every
 * {@link IndexInput#readFloats} of its inputs, their clones and slices, with the file and the
 * absolute offset in it, in the order they happened. Vector values read a vector with one {@code
 * readFloats}, so the reads recorded are the vector reads, apart from the reads of the segment's
 * metadata.
 *
 * <p>Its inputs hide the wrapped directory's input type: a memory-mapped input is no longer a
 * {@code MemorySegmentAccessInput}, so vector scorers read through {@code readFloats} instead of
 * reading the mapping directly, and every vector read is seen.
 */
final class RecordingDirectory extends FilterDirectory {

  /** What an input was asked to do. */
  enum Kind {
    PREFETCH,
    READ_FLOATS
  }

  /** One prefetch or read of {@code length} bytes at {@code offset} of {@code file}. */
  record Event(long sequence, Kind kind, String file, long offset, long length) {
    boolean covers(Event read) {
      return file.equals(read.file)
          && offset <= read.offset
          && read.offset + read.length <= offset + length;
    }
  }

  private final AtomicLong sequence = new AtomicLong();
  private final List<Event> events = new ArrayList<>();
  private volatile boolean recording;

  RecordingDirectory(Directory in) {
    super(in);
  }

  /** Runs {@code action} and returns its result with what its inputs were asked to do. */
  <T> Recorded<T> record(IOSupplier<T> action) throws IOException {
    synchronized (events) {
      events.clear();
    }
    recording = true;
    T result;
    try {
      result = action.get();
    } finally {
      recording = false;
    }
    synchronized (events) {
      return new Recorded<>(result, List.copyOf(events));
    }
  }

  /** The result of a recorded action and the events it caused. */
  record Recorded<T>(T result, List<Event> events) {}

  private void add(Kind kind, String file, long offset, long length) {
    if (recording) {
      synchronized (events) {
        events.add(new Event(sequence.incrementAndGet(), kind, file, offset, length));
      }
    }
  }

  @Override
  public IndexInput openInput(String name, IOContext context) throws IOException {
    return new RecordingInput(name, in.openInput(name, context), 0);
  }

  /** An input that reports its prefetches and float reads, at offsets in its file. */
  private final class RecordingInput extends IndexInput {
    private final String file;
    private final IndexInput delegate;
    private final long base;

    RecordingInput(String file, IndexInput delegate, long base) {
      super("recording(" + delegate + ")");
      this.file = file;
      this.delegate = delegate;
      this.base = base;
    }

    @Override
    public void prefetch(long offset, long length) throws IOException {
      add(Kind.PREFETCH, file, base + offset, length);
      delegate.prefetch(offset, length);
    }

    @Override
    public void readFloats(float[] floats, int offset, int len) throws IOException {
      add(Kind.READ_FLOATS, file, base + delegate.getFilePointer(), (long) len * Float.BYTES);
      delegate.readFloats(floats, offset, len);
    }

    @Override
    public byte readByte() throws IOException {
      return delegate.readByte();
    }

    @Override
    public void readBytes(byte[] bytes, int offset, int len) throws IOException {
      delegate.readBytes(bytes, offset, len);
    }

    @Override
    public short readShort() throws IOException {
      return delegate.readShort();
    }

    @Override
    public int readInt() throws IOException {
      return delegate.readInt();
    }

    @Override
    public long readLong() throws IOException {
      return delegate.readLong();
    }

    @Override
    public void readInts(int[] dst, int offset, int length) throws IOException {
      delegate.readInts(dst, offset, length);
    }

    @Override
    public void readLongs(long[] dst, int offset, int length) throws IOException {
      delegate.readLongs(dst, offset, length);
    }

    @Override
    public long getFilePointer() {
      return delegate.getFilePointer();
    }

    @Override
    public void seek(long pos) throws IOException {
      delegate.seek(pos);
    }

    @Override
    public long length() {
      return delegate.length();
    }

    @Override
    public IndexInput slice(String description, long offset, long length) throws IOException {
      return new RecordingInput(file, delegate.slice(description, offset, length), base + offset);
    }

    @Override
    public IndexInput clone() {
      return new RecordingInput(file, delegate.clone(), base);
    }

    @Override
    public void close() throws IOException {
      delegate.close();
    }
  }
}

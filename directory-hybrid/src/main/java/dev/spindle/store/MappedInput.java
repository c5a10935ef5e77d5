package dev.spindle.store;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.lucene.store.FilterIndexInput;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.RandomAccessInput;

/**
 * The master input of a memory-mapped file, wrapped so that {@link HybridDirectory} knows which
 * mapped inputs are open: closing it updates the directory's statistics, and the directory closes
 * whatever is still open when it is closed itself.
 *
 * <p>Clones and slices are the unwrapped mapped inputs: they are what codecs read on the hot path,
 * and they are released together with this master, as with any Lucene input. A slice opened with an
 * {@link IOContext} is advised as the file it stands for ({@link InnerFileHint}).
 */
final class MappedInput extends FilterIndexInput {

  private final HybridDirectory owner;
  private final long mappedLength;
  private final AtomicBoolean closed = new AtomicBoolean();

  MappedInput(HybridDirectory owner, IndexInput mapped) {
    super(mapped.toString(), mapped);
    this.owner = owner;
    this.mappedLength = mapped.length();
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
        owner.mappingClosed(this);
      }
    }
  }

  @Override
  public IndexInput clone() {
    return in.clone();
  }

  @Override
  public IndexInput slice(String sliceDescription, long offset, long length) throws IOException {
    return in.slice(sliceDescription, offset, length);
  }

  /**
   * A slice opened with a context is a file inside a compound file ({@code Lucene90CompoundReader}
   * passes the inner file's name as the description): it is advised as that file, not as the
   * compound file.
   */
  @Override
  public IndexInput slice(String sliceDescription, long offset, long length, IOContext context)
      throws IOException {
    return in.slice(
        sliceDescription, offset, length, context.union(new InnerFileHint(sliceDescription)));
  }

  @Override
  public RandomAccessInput randomAccessSlice(long offset, long length) throws IOException {
    return in.randomAccessSlice(offset, length);
  }

  @Override
  public void prefetch(long offset, long length) throws IOException {
    in.prefetch(offset, length);
  }

  @Override
  public void updateIOContext(IOContext context) throws IOException {
    in.updateIOContext(context);
  }

  @Override
  public boolean isEfficientFor(IOContext context) {
    return in.isEfficientFor(context);
  }

  @Override
  public Optional<Boolean> isLoaded() {
    return in.isLoaded();
  }

  @Override
  public void skipBytes(long numBytes) throws IOException {
    in.skipBytes(numBytes);
  }

  @Override
  public short readShort() throws IOException {
    return in.readShort();
  }

  @Override
  public int readInt() throws IOException {
    return in.readInt();
  }

  @Override
  public long readLong() throws IOException {
    return in.readLong();
  }

  @Override
  public int readVInt() throws IOException {
    return in.readVInt();
  }

  @Override
  public long readVLong() throws IOException {
    return in.readVLong();
  }

  @Override
  public void readGroupVInt(int[] dst, int offset) throws IOException {
    in.readGroupVInt(dst, offset);
  }

  @Override
  public void readInts(int[] dst, int offset, int length) throws IOException {
    in.readInts(dst, offset, length);
  }

  @Override
  public void readLongs(long[] dst, int offset, int length) throws IOException {
    in.readLongs(dst, offset, length);
  }

  @Override
  public void readFloats(float[] floats, int offset, int length) throws IOException {
    in.readFloats(floats, offset, length);
  }
}

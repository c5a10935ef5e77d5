package dev.spindle.store;

import java.io.IOException;
import java.util.Optional;
import org.apache.lucene.store.FilterIndexInput;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.RandomAccessInput;

/**
 * A {@link FilterIndexInput} that forwards every read to the mapped input it wraps, not only the
 * single-byte and byte-array reads that {@code FilterIndexInput} forwards: the multi-byte reads,
 * prefetching and read advice of a mapped input are what make it fast, and {@link
 * org.apache.lucene.store.DataInput}'s defaults would rebuild every {@code readLong} from bytes.
 *
 * <p>Not thread-safe, as any {@link IndexInput}.
 */
abstract class ForwardingInput extends FilterIndexInput {

  ForwardingInput(String resourceDescription, IndexInput in) {
    super(resourceDescription, in);
  }

  /**
   * Declared again because {@link FilterIndexInput} does not forward it: {@link IndexInput}'s own
   * would copy this wrapper and share its delegate, and with it the delegate's position.
   */
  @Override
  public abstract IndexInput clone();

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

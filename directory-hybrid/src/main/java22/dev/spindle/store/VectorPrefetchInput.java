package dev.spindle.store;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.MemorySegmentAccessInput;

/**
 * A clone or slice of a raw-vector file ({@code .vec}) whose prefetches go to the pool, and which
 * is still a {@link MemorySegmentAccessInput}: Lucene's vector scorers check for that interface and
 * then score straight from the mapping, copying nothing, so a wrapper that hid it would send them
 * to the slower path that copies each vector onto the heap. Every read, and every memory segment a
 * scorer asks for, is Lucene's mapped input's.
 *
 * <p>Why raw vectors and not the graph or the quantized vectors: raw vectors are what an index
 * outgrows memory by, and what full-precision rescoring reads at random places, a few vectors per
 * query, after announcing them with {@code KnnVectorValues.prefetch}; the graph and quantized
 * vectors are read node by node while the search walks the graph, with no prefetch to intercept,
 * and must stay cached anyway.
 *
 * <p>Only built over an input that is itself a {@link MemorySegmentAccessInput}, by {@code
 * RawVectorInputs}, which finds this class by name: it is in the jar's Java 22 part, since the
 * interface's {@link MemorySegment} is a preview API in Java 21. Not thread-safe, as any {@link
 * IndexInput}.
 */
final class VectorPrefetchInput extends PrefetchInput implements MemorySegmentAccessInput {

  private final MemorySegmentAccessInput access;

  VectorPrefetchInput(IndexInput in, PrefetchTarget target, long fileOffset) {
    super(in, target, fileOffset, Long.MAX_VALUE);
    this.access = (MemorySegmentAccessInput) in;
  }

  @Override
  public MemorySegment segmentSliceOrNull(long pos, long len) throws IOException {
    return access.segmentSliceOrNull(pos, len);
  }

  @Override
  public byte readByte(long pos) throws IOException {
    return access.readByte(pos);
  }

  @Override
  public void readBytes(long pos, byte[] bytes, int offset, int length) throws IOException {
    access.readBytes(pos, bytes, offset, length);
  }

  @Override
  public short readShort(long pos) throws IOException {
    return access.readShort(pos);
  }

  @Override
  public int readInt(long pos) throws IOException {
    return access.readInt(pos);
  }

  @Override
  public long readLong(long pos) throws IOException {
    return access.readLong(pos);
  }

  @Override
  VectorPrefetchInput wrap(IndexInput input, long fileOffset) {
    return new VectorPrefetchInput(input, target, fileOffset);
  }

  @Override
  public VectorPrefetchInput clone() {
    return wrap(in.clone(), fileOffset);
  }
}

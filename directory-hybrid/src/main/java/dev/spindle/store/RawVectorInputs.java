package dev.spindle.store;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.MemorySegmentAccessInput;

/**
 * The read path of raw vectors whose prefetches go to a pool: {@code VectorPrefetchInput}, a {@link
 * PrefetchInput} that is also a {@link MemorySegmentAccessInput}, so that Lucene's vector scorers
 * keep reading the mapping without a copy.
 *
 * <p>That interface returns a {@code java.lang.foreign.MemorySegment}, a preview API in Java 21,
 * which this jar is compiled for; so {@code VectorPrefetchInput} lives in the jar's Java 22 part
 * ({@code META-INF/versions/22}) and is found here by name. On Java 21 it is not there, and raw
 * vectors are read as Lucene's inputs, their prefetches Lucene's {@code madvise}: a wrapper that
 * hid the interface would send every scorer to the path that copies each vector.
 *
 * <p>Stateless, so any number of threads may use it.
 */
final class RawVectorInputs {

  /** {@code (IndexInput, PrefetchTarget, long) -> VectorPrefetchInput}, or null on Java 21. */
  private static final MethodHandle CONSTRUCTOR = find();

  private RawVectorInputs() {}

  private static MethodHandle find() {
    try {
      Class<?> type = Class.forName("dev.spindle.store.VectorPrefetchInput");
      return MethodHandles.lookup()
          .findConstructor(
              type,
              MethodType.methodType(void.class, IndexInput.class, PrefetchTarget.class, long.class))
          .asType(
              MethodType.methodType(
                  IndexInput.class, IndexInput.class, PrefetchTarget.class, long.class));
    } catch (ReflectiveOperationException | LinkageError notOnThisJava) {
      return null;
    }
  }

  /** Whether raw vectors' prefetches can go to a pool on this Java. */
  static boolean available() {
    return CONSTRUCTOR != null;
  }

  /**
   * Wraps each clone or slice that Lucene mapped; leaves the rest (read through NIO, or any input
   * on Java 21) as Lucene's.
   */
  static ReadPaths.ReadPath readPath(PrefetchTarget target) {
    if (CONSTRUCTOR == null) {
      return ReadPaths.LUCENE;
    }
    return (input, fileOffset) -> {
      if (input instanceof MemorySegmentAccessInput == false) {
        return input;
      }
      try {
        return (IndexInput) CONSTRUCTOR.invokeExact(input, target, fileOffset);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable impossible) {
        throw new AssertionError(impossible);
      }
    };
  }
}

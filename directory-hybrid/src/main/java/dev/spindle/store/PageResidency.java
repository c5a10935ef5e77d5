package dev.spindle.store;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.MemorySegmentAccessInput;

/**
 * Whether a range of a file that Lucene has mapped is in physical memory: {@code
 * MemorySegment.isLoaded()} (one {@code mincore}) on the part of Lucene's mapping that holds the
 * range, which Lucene hands out through {@link MemorySegmentAccessInput#segmentSliceOrNull}.
 *
 * <p>Reached through method handles: {@code java.lang.foreign} is a preview API in Java 21, the
 * release this module is compiled for, and final from Java 22. The handles are constants, so the
 * JIT compiles a call as a direct one. Where they cannot be made, or the input is not Lucene's
 * mapped input, or the range spans two of its chunks, the answer is "not known to be resident", and
 * a prefetch then reads the range, which is always correct.
 *
 * <p>Stateless and thread-safe.
 */
final class PageResidency {

  /** {@code (MemorySegmentAccessInput, long, long) -> Object}: the segment, or null. */
  private static final MethodHandle SEGMENT_SLICE;

  /** {@code (Object) -> boolean}: {@code MemorySegment.isLoaded()}. */
  private static final MethodHandle IS_LOADED;

  static {
    MethodHandle slice = null;
    MethodHandle isLoaded = null;
    try {
      Class<?> segment = Class.forName("java.lang.foreign.MemorySegment");
      MethodHandles.Lookup lookup = MethodHandles.publicLookup();
      slice =
          lookup
              .findVirtual(
                  MemorySegmentAccessInput.class,
                  "segmentSliceOrNull",
                  MethodType.methodType(segment, long.class, long.class))
              .asType(
                  MethodType.methodType(
                      Object.class, MemorySegmentAccessInput.class, long.class, long.class));
      isLoaded =
          lookup
              .findVirtual(segment, "isLoaded", MethodType.methodType(boolean.class))
              .asType(MethodType.methodType(boolean.class, Object.class));
    } catch (ReflectiveOperationException | RuntimeException e) {
      slice = null;
      isLoaded = null;
    }
    SEGMENT_SLICE = slice;
    IS_LOADED = isLoaded;
  }

  private PageResidency() {}

  /** Whether residency can be asked at all on this JVM and Lucene. */
  static boolean available() {
    return SEGMENT_SLICE != null;
  }

  /**
   * Whether every page of {@code [offset, offset + length)} of {@code input} is in memory; false
   * when that cannot be told.
   *
   * @param input a clone or slice of Lucene's mapped input; offsets are relative to it
   */
  static boolean isResident(IndexInput input, long offset, long length) {
    if (SEGMENT_SLICE == null || input instanceof MemorySegmentAccessInput == false) {
      return false;
    }
    try {
      Object segment =
          (Object) SEGMENT_SLICE.invokeExact((MemorySegmentAccessInput) input, offset, length);
      return segment != null && (boolean) IS_LOADED.invokeExact(segment);
    } catch (Error e) {
      throw e;
    } catch (Throwable t) {
      // A closed input (IllegalStateException from its arena), a range outside it: the read that
      // would follow fails on its own, with Lucene's message; the prefetch only declines.
      return false;
    }
  }
}

package dev.spindle.store;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.UnaryOperator;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.MMapDirectory;

/**
 * The memory-mapped inputs of one {@link HybridDirectory}: wraps each input that Lucene maps in a
 * {@link MappedInput}, chooses how its clones and slices are read, and counts the inputs mapped so
 * far and those open now, with their bytes, until their owners close them.
 *
 * <p>A mapping outlives the directory: closing the directory closes no input, so the counts of open
 * inputs fall only as their owners close them, as they would with {@link MMapDirectory}.
 *
 * <p>Thread-safe: inputs are opened and closed by any number of threads at once. Each count is
 * exact, but the two counts of open inputs and bytes are not updated atomically together.
 */
final class MappedInputs {

  private final FileRouting routing;
  private final boolean clipEveryFile;
  private final LongAdder opened = new LongAdder();
  private final AtomicInteger open = new AtomicInteger();
  private final AtomicLong openBytes = new AtomicLong();

  /**
   * @param routing decides which files are per-document data, whose prefetches are clipped
   * @param clipEveryFile test seam: clip the prefetches of every mapped file
   */
  MappedInputs(FileRouting routing, boolean clipEveryFile) {
    this.routing = routing;
    this.clipEveryFile = clipEveryFile;
  }

  /** Wraps the master input of {@code name} that Lucene has just mapped, and counts it open. */
  IndexInput track(IndexInput mapped, String name, IOContext context) {
    MappedInput input = new MappedInput(this, mapped, readPath(name, context));
    opened.increment();
    open.incrementAndGet();
    openBytes.addAndGet(input.mappedLength());
    return input;
  }

  /** Called once by each {@link MappedInput}, when it is closed. */
  void closed(MappedInput input) {
    open.decrementAndGet();
    openBytes.addAndGet(-input.mappedLength());
  }

  /**
   * How the clones and slices of a mapped input of {@code name} are read: Lucene's mapped inputs
   * themselves, or, for per-document data, wrapped so that their prefetches are clipped. Without
   * native access Lucene's prefetch does nothing, and the wrapper would only cost.
   */
  UnaryOperator<IndexInput> readPath(String name, IOContext context) {
    if (MMapDirectory.supportsMadvise()
        && (clipEveryFile || routing.clipsPrefetch(name, context))) {
      return ClippedPrefetchInput::new;
    }
    return UnaryOperator.identity();
  }

  /** Inputs mapped so far, clones and slices aside. */
  long opened() {
    return opened.sum();
  }

  /** Mapped inputs open now, clones and slices aside. */
  int open() {
    return open.get();
  }

  /** The total length of the mapped inputs open now. */
  long openBytes() {
    return openBytes.get();
  }
}

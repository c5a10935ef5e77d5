package dev.spindle.store;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.IOSupplier;

/**
 * The master inputs of one {@link HybridDirectory}: wraps each input that Lucene opens in a {@link
 * MasterInput} where its life matters, gives it a {@link PrefetchFile} where its prefetches go to a
 * pool, and counts the mapped inputs opened so far and those open now, with their bytes, until
 * their owners close them.
 *
 * <p>Every mapped input is wrapped, to be counted. An NIO input is wrapped only when its prefetches
 * go to a pool (its {@code PrefetchFile} must close with it); otherwise it is Lucene's, as {@link
 * org.apache.lucene.store.NIOFSDirectory}'s are, and its prefetches do nothing.
 *
 * <p>A mapping outlives the directory: closing the directory closes no input, so the counts of open
 * inputs fall only as their owners close them, as they would with {@link MMapDirectory}.
 *
 * <p>Thread-safe: inputs are opened and closed by any number of threads at once. Each count is
 * exact, but the two counts of open inputs and bytes are not updated atomically together.
 */
final class MasterInputs {

  private final Path directory;
  private final ReadPaths readPaths;
  private final LongAdder opened = new LongAdder();
  private final AtomicInteger open = new AtomicInteger();
  private final AtomicLong openBytes = new AtomicLong();
  private final MasterInput.OnClose countClosed = this::closed;

  MasterInputs(Path directory, ReadPaths readPaths) {
    this.directory = directory;
    this.readPaths = readPaths;
  }

  /** Wraps the master input of {@code name} that Lucene has just mapped, and counts it open. */
  IndexInput mapped(IndexInput mapped, String name, IOContext context) {
    PrefetchFile file = prefetchFile(mapped, name, context, null);
    MasterInput input =
        new MasterInput(mapped, readPaths, readPaths.of(name, context, file), file, countClosed);
    opened.increment();
    open.incrementAndGet();
    openBytes.addAndGet(input.openLength());
    return input;
  }

  /**
   * The master input of {@code name} that Lucene has just opened through NIO, wrapped if its
   * prefetches go to a pool.
   *
   * @param residencyTwin maps the file, to ask which of its pages are resident
   */
  IndexInput nio(
      IndexInput nio, String name, IOContext context, IOSupplier<IndexInput> residencyTwin) {
    if (readPaths.prefetchesThroughPool(name, context) == false) {
      return nio;
    }
    PrefetchFile file = prefetchFile(nio, name, context, residencyTwin);
    return new MasterInput(
        nio, readPaths, readPaths.of(name, context, file), file, MasterInput.OnClose.NOTHING);
  }

  private PrefetchFile prefetchFile(
      IndexInput input, String name, IOContext context, IOSupplier<IndexInput> residencyTwin) {
    return readPaths.needsPrefetchFile(name, context)
        ? new PrefetchFile(
            directory.resolve(name), input.length(), readPaths.prefetcher(), residencyTwin)
        : null;
  }

  private void closed(MasterInput input) {
    open.decrementAndGet();
    openBytes.addAndGet(-input.openLength());
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

package dev.spindle.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.store.NIOFSDirectory;
import org.apache.lucene.store.NoLockFactory;
import org.apache.lucene.store.ReadAdvice;
import org.apache.lucene.util.IOUtils;

/**
 * The inputs a {@link HybridDirectory} opens: each file routed to Lucene's mapped or NIO directory
 * by {@link FileRouting}, a mapping that fails falling back to NIO through {@link MappingFallback},
 * and every input handed to {@link MasterInputs}. The inner directories only open inputs: they
 * never list, write or delete, so they need no lock, and their own pending-delete sets stay empty.
 *
 * <p>Thread-safe: any number of threads may open inputs at once.
 */
final class RoutedInputs implements Closeable {

  private final FileRouting routing;
  private final MappingFallback mappingFallback;
  private final MappingFailureInjector mappingFailureInjector;
  private final MappedInputHook mappedInputHook;
  private final MasterInputs masterInputs;
  private final MMapDirectory mmapReader;
  private final NIOFSDirectory nioReader;

  /** Maps NIO files only to ask which of their pages are resident; null without a pool. */
  private final MMapDirectory residencyMapper;

  private final LongAdder nioOpens = new LongAdder();

  /**
   * @param pooled whether prefetches go to a pool, which asks NIO files' residency of a mapping
   */
  RoutedInputs(
      Path directory,
      FileRouting routing,
      MasterInputs masterInputs,
      MappingFallback mappingFallback,
      MappingFailureInjector mappingFailureInjector,
      MappedInputHook mappedInputHook,
      long maxChunkSize,
      boolean pooled)
      throws IOException {
    this.routing = routing;
    this.masterInputs = masterInputs;
    this.mappingFallback = mappingFallback;
    this.mappingFailureInjector = mappingFailureInjector;
    this.mappedInputHook = mappedInputHook;
    MMapDirectory mmap = new MMapDirectory(directory, NoLockFactory.INSTANCE, maxChunkSize);
    mmap.setReadAdvice((name, context) -> Optional.of(routing.readAdvice(name, context)));
    mmap.setPreload(routing::preload);
    this.mmapReader = mmap;
    this.nioReader = new NIOFSDirectory(directory, NoLockFactory.INSTANCE);
    MMapDirectory residency = null;
    if (pooled) {
      // Never read, so neither advice nor preload: a mapping to ask mincore about.
      residency = new MMapDirectory(directory, NoLockFactory.INSTANCE, maxChunkSize);
      residency.setReadAdvice((name, context) -> Optional.of(ReadAdvice.RANDOM));
    }
    this.residencyMapper = residency;
  }

  IndexInput open(String name, IOContext context) throws IOException {
    if (routing.route(name, context) == FileRouting.Route.NIO) {
      return openNio(name, context);
    }
    return mappingFallback.open(
        name, () -> openMapped(name, context), () -> openNio(name, context));
  }

  private IndexInput openMapped(String name, IOContext context) throws IOException {
    mappingFailureInjector.beforeMapping(name, context);
    IndexInput mapped = mappedInputHook.opened(mmapReader.openInput(name, context));
    return masterInputs.mapped(mapped, name, context);
  }

  private IndexInput openNio(String name, IOContext context) throws IOException {
    IndexInput input = nioReader.openInput(name, context);
    nioOpens.increment();
    return masterInputs.nio(
        input, name, context, () -> residencyMapper.openInput(name, IOContext.DEFAULT));
  }

  /** Inputs opened through NIO so far, fallbacks included. */
  long nioOpens() {
    return nioOpens.sum();
  }

  /** Marks the inner directories closed; neither closes the inputs it opened. */
  @Override
  public void close() throws IOException {
    IOUtils.close(mmapReader, nioReader, residencyMapper);
  }
}

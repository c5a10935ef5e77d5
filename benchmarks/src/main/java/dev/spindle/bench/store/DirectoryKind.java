package dev.spindle.bench.store;

import dev.spindle.bench.jvm.PeerClasspath;
import dev.spindle.store.BenchmarkSeams;
import dev.spindle.store.HybridDirectory;
import dev.spindle.store.PageReclaim;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.store.NIOFSDirectory;
import org.apache.lucene.store.ReadAdvice;
import org.apache.lucene.util.Version;

/**
 * The directories the directory benchmarks compare, in the order of the report's rows; a variant is
 * one more constant. The peers' own {@code hybridfs} opens only in a JVM on the peer's class path,
 * through the peer's {@link PeerDirectory} adapter.
 */
public enum DirectoryKind {
  HYBRID("HybridDirectory", HybridDirectory::new),
  /**
   * HybridDirectory without its prefetch pool ({@code prefetchThreads(0)}): every input Lucene's
   * own, every prefetch Lucene's {@code madvise}; what the default's pool and direct blocks are set
   * against.
   */
  HYBRID_NO_POOL(
      "HybridDirectory, no prefetch pool",
      path -> HybridDirectory.builder(path).prefetchThreads(0).build()),
  /**
   * The pool taking the prefetches of every file read to serve searches: terms, postings and the
   * other structures are wrapped too.
   */
  HYBRID_POOL_EVERY_FILE(
      "HybridDirectory, 16 prefetch threads for every search file",
      path -> BenchmarkSeams.withPoolForEverySearchFile(path, 16)),
  /** The pool with no direct blocks: every prefetched range is read into the page cache. */
  HYBRID_POOL_PAGE_CACHE(
      "HybridDirectory, 16 prefetch threads, no direct blocks",
      path -> HybridDirectory.builder(path).prefetchThreads(16).directPrefetchBlocks(0).build()),
  /** Each stored-fields prefetch clipped to its chunk's first 8 KiB (header and dictionary). */
  HYBRID_8K_WINDOW(
      "HybridDirectory, 8 KiB prefetch window",
      path -> BenchmarkSeams.withPerDocumentPrefetchWindow(path, 8 << 10)),
  /**
   * The pool, with stored fields and term vectors read through NIO instead of mapped: a prefetch's
   * positional read fills the page cache, and the read that follows copies from it rather than
   * mapping pages that reclaim must unmap again.
   */
  HYBRID_POOL_NIO_STORED(
      "HybridDirectory, 16 prefetch threads, stored fields through NIO",
      path ->
          HybridDirectory.builder(path)
              .prefetchThreads(16)
              .directPrefetchBlocks(0)
              .mmapExtensions(
                  HybridDirectory.DEFAULT_MMAP_EXTENSIONS.stream()
                      .filter(extension -> Set.of("fdt", "tvd").contains(extension) == false)
                      .collect(Collectors.toSet()))
              .build()),
  /** The advice HybridDirectory chooses under the multi-gen LRU, forced: what it costs here. */
  HYBRID_MGLRU_ADVICE(
      "HybridDirectory, MGLRU advice",
      path -> HybridDirectory.builder(path).pageReclaim(PageReclaim.MULTI_GEN_LRU).build()),
  MMAP("MMapDirectory", MMapDirectory::new),
  /**
   * Every file advised {@code RANDOM}, set per directory because {@code
   * -Dorg.apache.lucene.store.defaultReadAdvice} is read once per JVM: HybridDirectory's stored
   * fields reads, except that a prefetch asks for the whole chunk.
   */
  MMAP_RANDOM("MMapDirectory, RANDOM advice", DirectoryKind::mmapRandom),
  NIOFS("NIOFSDirectory", NIOFSDirectory::new),
  /** Elasticsearch's own {@code hybridfs}, built by its {@code FsDirectoryFactory}. */
  ELASTICSEARCH_HYBRIDFS(
      "Elasticsearch hybridfs",
      "elasticsearch",
      "dev.spindle.bench.peer.elasticsearch.ElasticsearchPeer"),
  /** OpenSearch's own {@code hybridfs}, built by its {@code FsDirectoryFactory}. */
  OPENSEARCH_HYBRIDFS(
      "OpenSearch hybridfs", "opensearch", "dev.spindle.bench.peer.opensearch.OpenSearchPeer");

  /** Spindle's directory against Lucene's two (mapped and NIO) and the real peers' hybridfs. */
  public static final List<DirectoryKind> CONTENDERS =
      List.of(HYBRID, MMAP, NIOFS, ELASTICSEARCH_HYBRIDFS, OPENSEARCH_HYBRIDFS);

  @FunctionalInterface
  interface Opener {
    Directory open(Path path) throws IOException;
  }

  private final String label;
  private final Optional<String> peer;
  private final Opener opener;

  DirectoryKind(String label, Opener opener) {
    this.label = label;
    this.peer = Optional.empty();
    this.opener = opener;
  }

  DirectoryKind(String label, String peer, String adapter) {
    this.label = label;
    this.peer = Optional.of(peer);
    this.opener = path -> openPeer(adapter, path);
  }

  /** Opens this kind of directory over {@code path}; the caller closes it. */
  public Directory open(Path path) throws IOException {
    return opener.open(path);
  }

  /**
   * Which measuring JVM opens this kind when kinds share JVMs: the peer's, or ones of their own for
   * the prefetch variants, so that no JVM holds so many readers that it crowds a capped page cache.
   */
  Object jvmGroup() {
    if (this == HYBRID_POOL_NIO_STORED) {
      return "stored fields through NIO";
    }
    if (this == HYBRID_POOL_PAGE_CACHE) {
      return "prefetch into the page cache";
    }
    return this == HYBRID_NO_POOL || this == HYBRID_POOL_EVERY_FILE || this == HYBRID_8K_WINDOW
        ? "prefetch variants"
        : peer;
  }

  /** The peer whose classes this directory is; empty for Spindle's and Lucene's. */
  public Optional<String> peer() {
    return peer;
  }

  /** A peer's class path, with this build's Lucene (the index is this build's); else empty. */
  public Optional<PeerClasspath> peerClasspath() throws IOException {
    return peer.isEmpty()
        ? Optional.empty()
        : Optional.of(PeerClasspath.of(peer.get()).withLucene(Version.LATEST.toString()));
  }

  String classpath() throws IOException {
    Optional<PeerClasspath> classpath = peerClasspath();
    return classpath.isPresent()
        ? classpath.get().toClasspath()
        : System.getProperty("java.class.path");
  }

  @Override
  public String toString() {
    return label;
  }

  private static Directory mmapRandom(Path path) throws IOException {
    MMapDirectory directory = new MMapDirectory(path);
    directory.setReadAdvice((name, context) -> Optional.of(ReadAdvice.RANDOM));
    return directory;
  }

  private Directory openPeer(String adapter, Path path) throws IOException {
    try {
      return Class.forName(adapter)
          .asSubclass(PeerDirectory.class)
          .getConstructor()
          .newInstance()
          .open(path);
    } catch (ClassNotFoundException e) {
      throw new IOException(this + " opens only in a JVM on the class path of " + peer.get(), e);
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new IOException(
          "cannot create " + adapter,
          e instanceof InvocationTargetException ite ? ite.getCause() : e);
    }
  }
}

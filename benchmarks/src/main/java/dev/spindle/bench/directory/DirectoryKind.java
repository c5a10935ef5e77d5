package dev.spindle.bench.directory;

import dev.spindle.bench.harness.PeerClasspath;
import dev.spindle.store.HybridDirectory;
import dev.spindle.store.PageReclaim;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.store.NIOFSDirectory;
import org.apache.lucene.store.ReadAdvice;
import org.apache.lucene.util.Version;

/** The directory implementations the directory benchmarks compare, each opened over one folder. */
public enum DirectoryKind {
  HYBRID("HybridDirectory") {
    @Override
    public Directory open(Path path) throws IOException {
      return new HybridDirectory(path);
    }
  },
  MMAP("MMapDirectory") {
    @Override
    public Directory open(Path path) throws IOException {
      return new MMapDirectory(path);
    }
  },
  /**
   * {@code MMapDirectory} with every file advised {@code RANDOM}, which is what {@code
   * -Dorg.apache.lucene.store.defaultReadAdvice=RANDOM} does. Set per directory here, because the
   * property is read once per JVM and the other contenders run in the same JVM. Its stored fields
   * are read as HybridDirectory's are, except that a prefetch asks for the whole chunk.
   */
  MMAP_RANDOM("MMapDirectory, RANDOM advice") {
    @Override
    public Directory open(Path path) throws IOException {
      MMapDirectory directory = new MMapDirectory(path);
      directory.setReadAdvice((name, context) -> Optional.of(ReadAdvice.RANDOM));
      return directory;
    }
  },
  NIOFS("NIOFSDirectory") {
    @Override
    public Directory open(Path path) throws IOException {
      return new NIOFSDirectory(path);
    }
  },
  /**
   * Elasticsearch's own {@code hybridfs} directory, built by its {@code FsDirectoryFactory} as a
   * node builds it, in Elasticsearch's JVM on Lucene swapped to this build's.
   */
  ELASTICSEARCH_HYBRIDFS(
      "Elasticsearch hybridfs",
      "elasticsearch",
      "dev.spindle.bench.peer.elasticsearch.ElasticsearchHybridDirectory"),
  /**
   * OpenSearch's own {@code hybridfs} directory, built by its {@code FsDirectoryFactory} as a node
   * builds it, in OpenSearch's JVM on Lucene swapped to this build's.
   */
  OPENSEARCH_HYBRIDFS(
      "OpenSearch hybridfs",
      "opensearch",
      "dev.spindle.bench.peer.opensearch.OpenSearchHybridDirectory"),
  /**
   * HybridDirectory with the advice it chooses on a kernel whose multi-generational LRU is on, here
   * forced, to show what that choice costs on this kernel.
   */
  HYBRID_MGLRU_ADVICE("HybridDirectory, MGLRU advice") {
    @Override
    public Directory open(Path path) throws IOException {
      return HybridDirectory.builder(path).pageReclaim(PageReclaim.MULTI_GEN_LRU).build();
    }
  };

  /**
   * The contenders of a benchmark that sets Spindle's directory against Lucene's two (mapped and
   * NIO) and the real peers' {@code hybridfs}.
   */
  public static final List<DirectoryKind> CONTENDERS =
      List.of(HYBRID, MMAP, NIOFS, ELASTICSEARCH_HYBRIDFS, OPENSEARCH_HYBRIDFS);

  private final String label;
  private final Optional<String> peer;
  private final String peerDirectory;

  DirectoryKind(String label) {
    this.label = label;
    this.peer = Optional.empty();
    this.peerDirectory = null;
  }

  DirectoryKind(String label, String peer, String peerDirectory) {
    this.label = label;
    this.peer = Optional.of(peer);
    this.peerDirectory = peerDirectory;
  }

  /**
   * Opens this kind of directory over {@code path}; the caller closes it. A peer's directory opens
   * only in the peer's JVM, on its class path.
   */
  public Directory open(Path path) throws IOException {
    if (peerDirectory == null) {
      throw new AssertionError(this + " overrides open");
    }
    return PeerDirectories.open(this, peerDirectory, path);
  }

  /**
   * The peer whose classes this directory is ({@code elasticsearch}, {@code opensearch}), measured
   * in a JVM of its own on {@link dev.spindle.bench.harness.PeerClasspath#of} that peer; empty for
   * Spindle's and Lucene's directories, which any JVM of the benchmark opens.
   */
  public Optional<String> peer() {
    return peer;
  }

  /**
   * The class path of a JVM that can open this kind: the peer's, with this build's Lucene swapped
   * in, since it reads an index this build wrote; empty for a kind any JVM of the benchmark opens.
   */
  public Optional<PeerClasspath> peerClasspath() throws IOException {
    if (peer.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(PeerClasspath.of(peer.get()).withLucene(Version.LATEST.toString()));
  }

  /**
   * {@code kinds} grouped by the JVM that can run them, in order: those any JVM opens first, then
   * each peer's.
   */
  public static List<List<DirectoryKind>> byJvm(List<DirectoryKind> kinds) {
    Map<Optional<String>, List<DirectoryKind>> groups = new LinkedHashMap<>();
    groups.put(Optional.empty(), new ArrayList<>());
    for (DirectoryKind kind : kinds) {
      groups.computeIfAbsent(kind.peer, p -> new ArrayList<>()).add(kind);
    }
    List<List<DirectoryKind>> byJvm = new ArrayList<>();
    for (List<DirectoryKind> group : groups.values()) {
      if (group.isEmpty() == false) {
        byJvm.add(List.copyOf(group));
      }
    }
    return byJvm;
  }

  /** A name fit for a folder: lower case, no spaces. */
  public String slug() {
    return name().toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return label;
  }
}

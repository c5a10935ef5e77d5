package dev.spindle.bench.directory;

import dev.spindle.store.HybridDirectory;
import dev.spindle.store.PageReclaim;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FileSwitchDirectory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.store.NIOFSDirectory;
import org.apache.lucene.store.ReadAdvice;
import org.apache.lucene.util.IOUtils;

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
   * Elasticsearch 7.0's {@code hybridfs} routing on today's Lucene: norms, doc values and the terms
   * dictionary are mapped, everything else, compound files and the terms index included, is read
   * through NIO. This is the layout HybridDirectory has to beat, not a replay of 7.0's speed: 7.0
   * ran Lucene 8.0, which copied a terms index read through NIO onto the heap, whereas Lucene 10
   * always reads it off-heap, so here every lookup also pays NIO reads of {@code .tip}.
   */
  ES70_HYBRIDFS("ES 7.0 hybridfs") {
    @Override
    public Directory open(Path path) throws IOException {
      MMapDirectory mapped = new MMapDirectory(path);
      boolean success = false;
      try {
        Directory directory =
            new FileSwitchDirectory(
                Set.of("nvd", "dvd", "tim"), mapped, new NIOFSDirectory(path), true);
        success = true;
        return directory;
      } finally {
        if (success == false) {
          IOUtils.closeWhileHandlingException(mapped);
        }
      }
    }
  },

  /**
   * The routing of today's Elasticsearch {@code hybridfs} ({@code LuceneFilesExtensions}): compound
   * files, terms, postings (not positions), doc values, norms, points and vectors mapped with
   * {@code NORMAL} advice, stored fields, term vectors, positions and metadata read through NIO.
   * This is the class of hybrid directories that the starved target is set against.
   */
  ES_HYBRIDFS("Elasticsearch hybridfs layout") {
    @Override
    public Directory open(Path path) throws IOException {
      return HybridDirectory.builder(path)
          .mmapExtensions(
              Set.of("cfs", "tim", "tip", "doc", "dvd", "nvd", "kdd", "kdi", "vec", "vex"))
          .defaultReadAdvice(ReadAdvice.NORMAL)
          .build();
    }
  },
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

  private final String label;

  DirectoryKind(String label) {
    this.label = label;
  }

  /** Opens this kind of directory over {@code path}; the caller closes it. */
  public abstract Directory open(Path path) throws IOException;

  /** A name fit for a folder: lower case, no spaces. */
  public String slug() {
    return name().toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return label;
  }
}

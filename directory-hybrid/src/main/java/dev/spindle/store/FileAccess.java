package dev.spindle.store;

import java.util.Map;
import org.apache.lucene.store.DataAccessHint;
import org.apache.lucene.store.FileDataHint;
import org.apache.lucene.store.FileTypeHint;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.ReadAdvice;
import org.apache.lucene.store.ReadOnceHint;

/**
 * How Lucene reads a kind of file once a segment is open, which decides the read advice {@link
 * HybridDirectory} gives its mapping. Known extensions are classified by a table; a file with an
 * unknown extension by the hints its codec passed in the {@link IOContext}.
 */
enum FileAccess {
  /**
   * Read front to back once, when a segment opens: segment infos, field infos, every {@code *m}
   * metadata file, live docs. Routed through NIO by default; a slice of a compound file gets {@code
   * RANDOM}, so that reading a few hundred bytes does not pull megabytes around them.
   */
  METADATA {
    @Override
    ReadAdvice advice(PageReclaim reclaim) {
      return ReadAdvice.RANDOM;
    }
  },
  /**
   * A small index read on every lookup and meant to stay cached: the terms index, the stored fields
   * and term vectors indexes, the points index. {@code NORMAL}, so that the kernel sees that its
   * pages are used; a read-around loads most of such a small file at once, which is what it needs.
   */
  INDEX {
    @Override
    ReadAdvice advice(PageReclaim reclaim) {
      return ReadAdvice.NORMAL;
    }
  },
  /**
   * Per-document data: stored fields and term vectors. A few pages at a random place are read per
   * returned document, and rarely again soon after: {@code RANDOM} on every kernel, so that a miss
   * reads only those pages, and so that they are the first to go when memory is short, which is
   * right for them even with the multi-generational LRU. Their codec prefetches a whole compressed
   * chunk per document: their prefetch window decides how much of it is read ({@link
   * PrefetchInput}).
   */
  PER_DOCUMENT {
    @Override
    ReadAdvice advice(PageReclaim reclaim) {
      return ReadAdvice.RANDOM;
    }
  },
  /**
   * Raw, full-precision vectors ({@code .vec}). Of a field whose search walks a graph of quantized
   * vectors, full-precision rescoring reads a few per query at random places, rarely the same ones
   * soon after, and they are what makes an index outgrow memory; the prefetches that announce them
   * are Lucene's {@code madvise}, even with a pool (see {@code FileRouting.prefetchesThroughPool}
   * for why). A float HNSW field scores the same file while walking its graph, as a structure, and
   * nothing in the name tells the two apart; so the advice is {@link #STRUCTURE}'s, which on the
   * classic LRU ({@code RANDOM}) already reads only a missed vector's pages, and leaves the LRU to
   * keep the graph, walked by every search, over vectors read once.
   */
  RAW_VECTORS {
    @Override
    ReadAdvice advice(PageReclaim reclaim) {
      return STRUCTURE.advice(reclaim);
    }
  },
  /**
   * The structures that searches walk at random and come back to: terms dictionary, postings,
   * norms, doc values, points, the vector graph and quantized vectors. {@code RANDOM} with the
   * classic LRU; {@code NORMAL} with the multi-generational LRU, which would otherwise evict them
   * before anything else (see {@link PageReclaim}).
   */
  STRUCTURE {
    @Override
    ReadAdvice advice(PageReclaim reclaim) {
      return reclaim == PageReclaim.MULTI_GEN_LRU ? ReadAdvice.NORMAL : ReadAdvice.RANDOM;
    }
  },
  /**
   * A compound file: a whole small segment. Mapped with the advice of {@link #STRUCTURE}; each file
   * inside it is then a slice that gets the advice of its own kind where that differs. Lucene can
   * narrow a slice to {@code RANDOM} or {@code SEQUENTIAL} but leaves a {@code NORMAL} slice with
   * the compound file's advice.
   */
  COMPOUND {
    @Override
    ReadAdvice advice(PageReclaim reclaim) {
      return STRUCTURE.advice(reclaim);
    }
  },
  /**
   * A file of a format this directory does not know, opened without hints: the kernel's default,
   * {@code NORMAL}. A read-around costs at most one window per miss, where {@code RANDOM} on a file
   * that is in fact reused could cost a miss per use.
   */
  OTHER {
    @Override
    ReadAdvice advice(PageReclaim reclaim) {
      return ReadAdvice.NORMAL;
    }
  };

  private static final Map<String, FileAccess> BY_EXTENSION =
      Map.ofEntries(
          Map.entry("cfs", COMPOUND),
          Map.entry("tip", INDEX),
          Map.entry("fdx", INDEX),
          Map.entry("tvx", INDEX),
          Map.entry("kdi", INDEX),
          Map.entry("fdt", PER_DOCUMENT),
          Map.entry("tvd", PER_DOCUMENT),
          Map.entry("tim", STRUCTURE),
          Map.entry("doc", STRUCTURE),
          Map.entry("pos", STRUCTURE),
          Map.entry("pay", STRUCTURE),
          Map.entry("dvd", STRUCTURE),
          Map.entry("dvp", STRUCTURE),
          Map.entry("dvs", STRUCTURE),
          Map.entry("nvd", STRUCTURE),
          Map.entry("kdd", STRUCTURE),
          Map.entry("vec", RAW_VECTORS),
          Map.entry("vex", STRUCTURE),
          Map.entry("veq", STRUCTURE),
          Map.entry("veb", STRUCTURE),
          Map.entry("si", METADATA),
          Map.entry("fnm", METADATA),
          Map.entry("cfe", METADATA),
          Map.entry("fdm", METADATA),
          Map.entry("tvm", METADATA),
          Map.entry("tmd", METADATA),
          Map.entry("psm", METADATA),
          Map.entry("dvm", METADATA),
          Map.entry("nvm", METADATA),
          Map.entry("kdm", METADATA),
          Map.entry("vem", METADATA),
          Map.entry("vemf", METADATA),
          Map.entry("vemq", METADATA),
          Map.entry("vemb", METADATA),
          Map.entry("liv", METADATA));

  /** The advice for a mapped file of this kind, outside merges and flushes. */
  abstract ReadAdvice advice(PageReclaim reclaim);

  /**
   * Classifies a file by its extension ({@link FileRouting#extension}) or, for an extension this
   * table does not know, by the hints its codec passed: a custom codec that says what its file is
   * gets the same treatment as Lucene's own files.
   */
  static FileAccess of(String extension, IOContext context) {
    FileAccess known = BY_EXTENSION.get(extension);
    if (known != null) {
      return known;
    }
    if (context.hints().contains(ReadOnceHint.INSTANCE)) {
      return METADATA;
    }
    if (context.hints().contains(FileTypeHint.INDEX)) {
      return INDEX;
    }
    if (context.hints().contains(FileDataHint.KNN_VECTORS)
        || context.hints().contains(FileDataHint.POSTINGS)) {
      return STRUCTURE;
    }
    if (context.hints().contains(DataAccessHint.RANDOM)) {
      return PER_DOCUMENT;
    }
    if (context.hints().contains(FileTypeHint.DATA)) {
      return STRUCTURE;
    }
    return OTHER;
  }
}

package dev.spindle.store;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.MMapDirectory;

/**
 * HybridDirectory variants only a benchmark asks for, through the builder's package-private seams,
 * so that the published builder does not grow options no application needs; and the directory's own
 * residency check, for a benchmark to ask what stayed cached.
 */
public final class BenchmarkSeams {

  /** The page size the kernel reports residency in, on every platform the benchmarks run on. */
  public static final int PAGE_BYTES = 4096;

  private BenchmarkSeams() {}

  /** Stored-fields and term-vectors prefetches ask for at most {@code bytes} of each chunk. */
  public static HybridDirectory withPerDocumentPrefetchWindow(Path path, long bytes)
      throws IOException {
    return HybridDirectory.builder(path).perDocumentPrefetchWindow(bytes).build();
  }

  /**
   * How many of {@code file}'s {@value #PAGE_BYTES}-byte pages are in the page cache, asked page by
   * page with the check HybridDirectory makes ({@code mincore} on Lucene's mapping), which reads
   * nothing; -1 where residency cannot be told on this JVM.
   */
  public static long residentPages(Path file) throws IOException {
    if (PageResidency.available() == false) {
      return -1;
    }
    try (MMapDirectory directory = new MMapDirectory(file.getParent());
        IndexInput input = directory.openInput(file.getFileName().toString(), IOContext.DEFAULT)) {
      long resident = 0;
      for (long offset = 0; offset < input.length(); offset += PAGE_BYTES) {
        if (PageResidency.isResident(
            input, offset, Math.min(PAGE_BYTES, input.length() - offset))) {
          resident++;
        }
      }
      return resident;
    }
  }

  /**
   * A pool of {@code threads} that takes the prefetches of every file read to serve searches
   * (terms, postings, doc values, ...), not only those of stored fields, term vectors and raw
   * vectors.
   */
  public static HybridDirectory withPoolForEverySearchFile(Path path, int threads)
      throws IOException {
    return HybridDirectory.builder(path).prefetchThreads(threads).poolEverySearchFile().build();
  }
}

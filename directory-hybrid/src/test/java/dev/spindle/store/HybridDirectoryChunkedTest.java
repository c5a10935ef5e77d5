package dev.spindle.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.store.BaseChunkedDirectoryTestCase;

/**
 * Lucene's chunked-mapping suite over a hybrid directory that maps every file, so that the suite's
 * clone, slice and chunk-boundary checks all run against mapped inputs.
 */
public class HybridDirectoryChunkedTest extends BaseChunkedDirectoryTestCase {

  @Override
  protected Directory getDirectory(Path path, int maxChunkSize) throws IOException {
    return mappingEveryFile(path, maxChunkSize).build();
  }

  /**
   * A hybrid directory that maps every file, the suite's extension-less ones included, in chunks of
   * {@code maxChunkSize}.
   */
  static HybridDirectory.Builder mappingEveryFile(Path path, int maxChunkSize) {
    Set<String> mapEverything = new HashSet<>(HybridDirectory.DEFAULT_MMAP_EXTENSIONS);
    mapEverything.add("");
    return HybridDirectory.builder(path).mmapExtensions(mapEverything).maxChunkSize(maxChunkSize);
  }
}

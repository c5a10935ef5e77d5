package dev.spindle.store;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.store.BaseChunkedDirectoryTestCase;

/**
 * Lucene's chunked-mapping suite over a hybrid directory that maps and prefetches every file, so
 * that the suite's reads, clones, slices and chunk-boundary checks all run through {@link
 * PrefetchingInput}.
 */
public class HybridDirectoryPrefetchingTest extends BaseChunkedDirectoryTestCase {

  @Override
  protected Directory getDirectory(Path path, int maxChunkSize) throws IOException {
    return HybridDirectoryChunkedTest.mappingEveryFile(path, maxChunkSize)
        .prefetchEveryMappedFile()
        .build();
  }
}

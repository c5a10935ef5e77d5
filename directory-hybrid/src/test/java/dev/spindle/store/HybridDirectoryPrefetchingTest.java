package dev.spindle.store;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.store.BaseChunkedDirectoryTestCase;

/**
 * Lucene's chunked-mapping suite over a hybrid directory that maps every file and clips the
 * prefetches of every file to a random per-document window, so that the suite's reads, clones,
 * slices, prefetches and chunk-boundary checks all run through {@link PrefetchInput}, with a
 * prefetch pool of random size (one thread with a queue of one, or more) or without one.
 */
public class HybridDirectoryPrefetchingTest extends BaseChunkedDirectoryTestCase {

  @Override
  protected Directory getDirectory(Path path, int maxChunkSize) throws IOException {
    HybridDirectory.Builder builder =
        HybridDirectoryChunkedTest.mappingEveryFile(path, maxChunkSize)
            .clipPrefetchOfEveryMappedFile();
    RandomHybridConfig.randomPrefetching(random(), builder);
    // A window wraps every input even without a pool.
    builder.perDocumentPrefetchWindow(1 + random().nextInt(64 << 10));
    return builder.build();
  }
}

package dev.spindle.store;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.store.BaseDirectoryTestCase;

/**
 * Lucene's directory base suite with every file read as stored fields are, through a prefetch pool
 * whose prefetches are read with {@code O_DIRECT} into direct blocks: each of the suite's
 * prefetches is taken as not resident, so that the reads that follow take the blocks, through
 * seeks, clones and slices. Few slots, so that blocks are evicted too. The suite's files are on the
 * test file system, which passes {@code O_DIRECT} on to the real one (or, where that refuses it,
 * the directory falls back to the page cache, which this suite checks as well).
 */
public class HybridDirectoryDirectBlocksTest extends BaseDirectoryTestCase {

  @Override
  protected Directory getDirectory(Path path) throws IOException {
    return HybridDirectory.builder(path)
        .mmapExtensions(RandomHybridConfig.suiteFilesMappedOrNot(random()))
        .prefetchThreads(1 + random().nextInt(4))
        .prefetchQueueCapacity(1 + random().nextInt(64))
        .directPrefetchBlocks(1 + random().nextInt(8))
        .clipPrefetchOfEveryMappedFile()
        .residencyCheck((input, offset, length) -> false)
        .build();
  }
}

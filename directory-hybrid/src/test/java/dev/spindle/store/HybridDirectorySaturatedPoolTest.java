package dev.spindle.store;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.store.BaseDirectoryTestCase;

/**
 * Lucene's directory base suite with every prefetch sent to a saturated pool: one thread, a queue
 * of one, and every range taken as not resident, so that nearly every prefetch of the suite is
 * dropped while one is read beside the suite's own reads. The suite's files have no codec
 * extension: those without one are mapped half of the time, the others ({@code temp.bin}) are read
 * through NIO, whose prefetches go to the pool too.
 */
public class HybridDirectorySaturatedPoolTest extends BaseDirectoryTestCase {

  @Override
  protected Directory getDirectory(Path path) throws IOException {
    return HybridDirectory.builder(path)
        .mmapExtensions(RandomHybridConfig.suiteFilesMappedOrNot(random()))
        .prefetchThreads(1)
        .prefetchQueueCapacity(1)
        .residencyCheck((input, offset, length) -> false)
        .build();
  }
}

package dev.spindle.store;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.store.BaseDirectoryTestCase;
import org.apache.lucene.tests.util.LuceneTestCase.SuppressSysoutChecks;

/**
 * Lucene's directory base suite over randomly configured hybrid directories: random mmap sets
 * (often covering the suite's extension-less files), advice, preload, chunk sizes and injected
 * mapping failures.
 */
@SuppressSysoutChecks(
    bugUrl = "injected mapping failures are logged, once per directory, by design")
public class HybridDirectoryTest extends BaseDirectoryTestCase {

  @Override
  protected Directory getDirectory(Path path) throws IOException {
    return RandomHybridConfig.newDirectory(random(), path);
  }
}

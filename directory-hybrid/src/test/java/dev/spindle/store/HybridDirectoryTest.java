package dev.spindle.store;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.store.BaseDirectoryTestCase;
import org.junit.ClassRule;
import org.junit.rules.TestRule;

/**
 * Lucene's directory base suite over randomly configured hybrid directories: random mmap sets
 * (often covering the suite's extension-less files), advice, preload, chunk sizes and injected
 * mapping failures.
 */
public class HybridDirectoryTest extends BaseDirectoryTestCase {

  @ClassRule public static final TestRule QUIET = RandomHybridConfig.quietFallbackWarnings();

  @Override
  protected Directory getDirectory(Path path) throws IOException {
    return RandomHybridConfig.newDirectory(random(), path);
  }
}

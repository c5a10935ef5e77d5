package dev.spindle.store;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.tests.mockfile.FilterPath;
import org.apache.lucene.util.Constants;

/** Drops a file's pages from the page cache, for tests that need a range not to be resident. */
final class PageCache {

  private static final Path DD = Path.of("/bin/dd");

  private PageCache() {}

  /**
   * Drops the clean pages of {@code file} from the page cache: {@code dd iflag=nocache count=0},
   * which asks the kernel ({@code posix_fadvise(POSIX_FADV_DONTNEED)}) to drop the whole file.
   * Dirty pages stay: sync the file first. Skips the test where there is no {@code dd}.
   */
  static void drop(Path file) throws IOException, InterruptedException {
    assumeTrue("dropping pages needs Linux and dd", Constants.LINUX && Files.isExecutable(DD));
    Path real = FilterPath.unwrap(file).toAbsolutePath();
    Process dd =
        new ProcessBuilder(DD.toString(), "if=" + real, "iflag=nocache", "count=0", "status=none")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    assertTrue("dd exits", dd.waitFor(1, TimeUnit.MINUTES));
    assertEquals("dd's exit code", 0, dd.exitValue());
  }
}

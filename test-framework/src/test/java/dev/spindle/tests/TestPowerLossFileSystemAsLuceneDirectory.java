package dev.spindle.tests;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.NIOFSDirectory;
import org.apache.lucene.tests.store.BaseDirectoryTestCase;

/**
 * Lucene's directory contract over a {@link PowerLossFileSystem} with the power on: the wrapper
 * behaves like the file system it wraps.
 */
public class TestPowerLossFileSystemAsLuceneDirectory extends BaseDirectoryTestCase {

  @Override
  protected Directory getDirectory(Path path) throws IOException {
    // The root must exist, the directory need not (testNoDir): wrap its parent.
    PowerLossFileSystem fs = new PowerLossFileSystem(path.getParent(), random().nextLong());
    return new NIOFSDirectory(fs.root().resolve(path.getFileName().toString())) {
      @Override
      public synchronized void close() throws IOException {
        try {
          super.close();
        } finally {
          fs.close();
        }
      }
    };
  }
}
